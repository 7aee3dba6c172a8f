import type { ProjectPlace } from '@orrery/contract';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Image,
  Loader,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Title,
  Typography,
} from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import Markdown from 'react-markdown';
import { Link, useNavigate, useParams } from 'react-router';
import { useAppTemplate, useTemplateVersions } from '../../../api/apps';
import { ApiError } from '../../../api/client';
import { useContextLink } from '../../../app/context/platform-context';
import { messageOf } from '../../../ui/errors';
import { WhyNot } from '../../../ui/WhyNot';
import { installCan, sortTags, useAppsWrite } from '../rules';
import { TemplateHeader } from '../TemplateHeader';
import { APPS_TEXTS } from '../texts';

const T = APPS_TEXTS.explore;
const seg = encodeURIComponent;

/**
 * Explore: one template version with the version picker (Latest marked), its
 * markdown description, assets and links, and Install. `/apps/{appName}[/{version}]`.
 */
export default function ExplorePage({ place }: { place: ProjectPlace }) {
  const { appName = '', version: chosen } = useParams();
  const versions = useTemplateVersions(place, appName);
  const latest = versions.data?.[0]?.version;
  const version = chosen ?? latest;
  const link = useContextLink();
  const navigate = useNavigate();
  const write = useAppsWrite();
  const template = useAppTemplate(place, appName, version);

  const back = (
    <Anchor component={Link} to={link('/apps')} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} />
        {T.back}
      </Group>
    </Anchor>
  );
  let body;
  if (versions.isError || template.isError) {
    const error = versions.error ?? template.error;
    body = (
      <Alert color="red">
        {error instanceof ApiError && error.status === 404
          ? T.notFound
          : messageOf(error, APPS_TEXTS.somethingWentWrong)}
      </Alert>
    );
  } else if (!version || template.isPending) body = <Loader aria-label={APPS_TEXTS.loading} />;
  else if (!template.data) body = <Alert color="red">{T.notFound}</Alert>;
  else {
    const t = template.data;
    const install = installCan(write, t);
    const installPath = `/apps/${seg(appName)}/install/${seg(t.version)}`;
    body = (
      <Stack gap="md">
        <TemplateHeader title={t.title} logo={t.logo} version={t.version}>
          <Select
            label={T.version}
            w={200}
            allowDeselect={false}
            value={t.version}
            data={(versions.data ?? []).map((v) => ({
              value: v.version,
              label: v.version === latest ? `${v.version} (${T.latest})` : v.version,
            }))}
            onChange={(v) => v && navigate(link(`/apps/${seg(appName)}/${seg(v)}`))}
          />
          <WhyNot can={install}>
            <Button component={Link} to={link(installPath)}>
              {APPS_TEXTS.card.install}
            </Button>
          </WhyNot>
        </TemplateHeader>
        {/* The template's own unavailability holds for everyone: said on the page too. */}
        {t.runnable === false && <Alert color="yellow">{install.reason}</Alert>}
        <Group gap={4}>
          {sortTags(t.tags).map((tag) => (
            <Badge key={tag} variant="light">
              {tag}
            </Badge>
          ))}
        </Group>
        <Paper withBorder p="lg">
          <Typography>
            {/* react-markdown renders no raw HTML: a template's text cannot inject markup. */}
            <Markdown>{t.description || t.shortDescription}</Markdown>
          </Typography>
        </Paper>
        {!!t.assets?.length && (
          <Stack gap="xs">
            <Title order={4}>{T.assets}</Title>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
              {t.assets.map((a, i) => (
                <Image
                  key={a.url}
                  src={a.url}
                  alt={a.title ?? T.assetAlt(t.title, i + 1)}
                  radius="sm"
                />
              ))}
            </SimpleGrid>
          </Stack>
        )}
        {!!t.externalLinks?.length && (
          <Stack gap={4}>
            <Title order={4}>{T.links}</Title>
            {t.externalLinks.map((l) => (
              <Anchor key={l.url} href={l.url} target="_blank" rel="noreferrer">
                {l.text ?? l.title ?? l.url}
              </Anchor>
            ))}
          </Stack>
        )}
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      {back}
      {body}
    </Stack>
  );
}
