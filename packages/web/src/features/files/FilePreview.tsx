import { Alert, Code, Image, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { previewKind } from './paths';
import { FILE_TEXTS, TEXT_PREVIEW_BYTES } from './texts';

const T = FILE_TEXTS.drawer;

/** The first bytes of a text file, through the same op=OPEN link (a ranged read). */
async function readText(url: string, signal: AbortSignal) {
  const res = await fetch(url, {
    headers: { Range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` },
    credentials: 'include',
    signal,
  });
  if (!res.ok) throw new Error(String(res.status));
  return res.text();
}

function TextPreview({ url, size }: { url: string; size: number }) {
  const text = useQuery({
    queryKey: ['storage-preview', url],
    queryFn: ({ signal }) => readText(url, signal),
    staleTime: 0,
    gcTime: 0,
  });
  if (text.isPending) return <Loader size="sm" aria-label={T.type} />;
  if (text.isError) return <Alert color="red">{T.previewFailed}</Alert>;
  return (
    <Stack gap={4}>
      <Code block mah={320} style={{ overflow: 'auto', whiteSpace: 'pre-wrap' }}>
        {text.data}
      </Code>
      {size > TEXT_PREVIEW_BYTES && (
        <Text size="xs" c="dimmed">
          {T.truncated}
        </Text>
      )}
    </Stack>
  );
}

/** Previews of images, audio, video and text; other files get none. */
export function FilePreview({ name, url, size }: { name: string; url: string; size: number }) {
  const kind = previewKind(name);
  if (kind === 'image') return <Image src={url} alt={name} radius="sm" mah={320} fit="contain" />;
  if (kind === 'audio')
    return <audio controls src={url} style={{ width: '100%' }} aria-label={name} />;
  if (kind === 'video')
    return <video controls src={url} style={{ width: '100%', maxHeight: 320 }} aria-label={name} />;
  if (kind === 'text') return <TextPreview url={url} size={size} />;
  return (
    <Text size="sm" c="dimmed">
      {T.noPreview}
    </Text>
  );
}
