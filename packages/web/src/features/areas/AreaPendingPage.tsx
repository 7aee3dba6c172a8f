import { Text, Title } from '@mantine/core';
import { AREA_TEXTS } from './areas';

export default function AreaPendingPage({ title }: { title: string }) {
  return (
    <>
      <Title order={2} mb="sm">
        {title}
      </Title>
      <Text c="dimmed">{AREA_TEXTS.notAvailable}</Text>
    </>
  );
}
