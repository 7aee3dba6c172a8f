import { useState, type ReactNode } from 'react';
import { ActionIcon, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { CAROUSEL_PAGE } from '../rules';
import { APPS_TEXTS } from '../texts';

const T = APPS_TEXTS.carousel;

/** 3 cards a page, with arrows only when there are more than 3. */
export function Carousel({ title, cards }: { title: string; cards: ReactNode[] }) {
  const [page, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(cards.length / CAROUSEL_PAGE));
  const at = Math.min(page, pages - 1);
  const arrows = cards.length > CAROUSEL_PAGE;
  return (
    <Stack gap="xs" role="region" aria-label={title}>
      <Group justify="space-between">
        <Title order={4}>{title}</Title>
        {arrows && (
          <Group gap="xs">
            <ActionIcon
              variant="default"
              aria-label={T.previous}
              disabled={at === 0}
              onClick={() => setPage(at - 1)}
            >
              <IconChevronLeft size={16} />
            </ActionIcon>
            <Text size="sm" c="dimmed">
              {T.page(at + 1, pages)}
            </Text>
            <ActionIcon
              variant="default"
              aria-label={T.next}
              disabled={at === pages - 1}
              onClick={() => setPage(at + 1)}
            >
              <IconChevronRight size={16} />
            </ActionIcon>
          </Group>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, sm: CAROUSEL_PAGE }}>
        {cards.slice(at * CAROUSEL_PAGE, (at + 1) * CAROUSEL_PAGE)}
      </SimpleGrid>
    </Stack>
  );
}
