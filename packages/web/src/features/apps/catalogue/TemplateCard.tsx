import { useState } from 'react';
import { Anchor, Avatar, Badge, Button, Paper, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { AppTemplateSummary } from '../../../api/apps';
import type { Can } from '../../../api/permissions';
import { useContextLink } from '../../../app/context/platform-context';
import { WhyNot } from '../../../ui/WhyNot';
import { installCan, sortTags, VISIBLE_TAGS } from '../rules';
import { APPS_TEXTS } from '../texts';

const T = APPS_TEXTS.card;
const seg = encodeURIComponent;

/**
 * A catalogue card: title, short description, tags (3 and +N, Easy Deploy first),
 * Show All (every tag), Explore, Install and Installed (count), a link to this template's
 * instances. Install is disabled with its reason when this installation cannot run the template
 * (said on the card too: it holds for everyone) or the user may not install (`write`).
 */
export function TemplateCard(props: {
  template: AppTemplateSummary;
  installed: number;
  write: Can;
}) {
  const { template: t } = props;
  const link = useContextLink();
  const [showAll, setShowAll] = useState(false);
  const tags = sortTags(t.tags);
  const hidden = tags.length - VISIBLE_TAGS;
  const install = installCan(props.write, t);
  return (
    <Paper withBorder p="md" h="100%" aria-label={t.title} role="article">
      <Stack gap="xs" h="100%">
        <Group gap="sm" wrap="nowrap">
          <Avatar src={t.logo ?? undefined} radius="sm" alt="">
            {t.title.slice(0, 1)}
          </Avatar>
          <Text fw={600}>{t.title}</Text>
        </Group>
        <Text size="sm" c="dimmed" style={{ flex: 1 }}>
          {t.shortDescription}
        </Text>
        <Group gap={4}>
          {(showAll ? tags : tags.slice(0, VISIBLE_TAGS)).map((tag) => (
            <Badge key={tag} variant="light" size="sm">
              {tag}
            </Badge>
          ))}
          {!showAll && hidden > 0 && (
            <Badge variant="outline" size="sm">
              {T.more(hidden)}
            </Badge>
          )}
          {!showAll && hidden > 0 && (
            <Anchor component="button" type="button" size="xs" onClick={() => setShowAll(true)}>
              {T.showAll}
            </Anchor>
          )}
        </Group>
        <Group gap="xs" justify="space-between">
          <Group gap="xs">
            <Button size="xs" variant="default" component={Link} to={link(`/apps/${seg(t.name)}`)}>
              {T.explore}
            </Button>
            <WhyNot can={install}>
              <Button size="xs" component={Link} to={link(`/apps/${seg(t.name)}/install`)}>
                {T.install}
              </Button>
            </WhyNot>
          </Group>
          <Anchor size="xs" component={Link} to={link(`/apps/installed/${seg(t.name)}`)}>
            {T.installed(props.installed)}
          </Anchor>
        </Group>
        {t.runnable === false && (
          <Text size="xs" c="dimmed">
            {install.reason}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
