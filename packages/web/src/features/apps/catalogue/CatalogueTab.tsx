import type { ProjectPlace } from '@orrery/contract';
import { Alert, Loader, SimpleGrid, Stack, Title } from '@mantine/core';
import { useTemplates, useInstances } from '../../../api/apps';
import { EmptyState } from '../../../ui/EmptyState';
import { messageOf } from '../../../ui/errors';
import { EASY_DEPLOY, useAppsWrite } from '../rules';
import { APPS_TEXTS as T } from '../texts';
import { Carousel } from './Carousel';
import { TemplateCard } from './TemplateCard';

/**
 * All Apps: the Easy Deploy carousel, then every template of the catalogue, each
 * card counting this project's instances of it (when those fail to load, the page says why
 * rather than showing counts of zero).
 */
export function CatalogueTab({ place }: { place: ProjectPlace }) {
  const templates = useTemplates(place);
  const instances = useInstances(place);
  const write = useAppsWrite();
  if (templates.isPending) return <Loader aria-label={T.loading} />;
  if (templates.isError)
    return <Alert color="red">{messageOf(templates.error, T.somethingWentWrong)}</Alert>;
  if (templates.data.length === 0) return <EmptyState title={T.noTemplates} />;
  const counts = new Map<string, number>();
  for (const i of instances.data ?? [])
    counts.set(i.templateName, (counts.get(i.templateName) ?? 0) + 1);
  const card = (t: (typeof templates.data)[number]) => (
    <TemplateCard key={t.name} template={t} installed={counts.get(t.name) ?? 0} write={write} />
  );
  const easy = templates.data.filter((t) => t.tags.includes(EASY_DEPLOY));
  return (
    <Stack gap="lg">
      {instances.isError && (
        <Alert color="red">{messageOf(instances.error, T.somethingWentWrong)}</Alert>
      )}
      {easy.length > 0 && <Carousel title={T.carousel.easyDeploy} cards={easy.map(card)} />}
      <Stack gap="xs">
        <Title order={4}>{T.allApps}</Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>{templates.data.map(card)}</SimpleGrid>
      </Stack>
    </Stack>
  );
}
