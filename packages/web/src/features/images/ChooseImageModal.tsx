import { useState } from 'react';
import { Button, Group, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import { DataTable } from '../../ui/DataTable';
import { imageUri, type ProjectPlace } from '@orrery/contract';
import { useImageDetails, useImages, type ImageRepo, type ImageTag } from '../../api/images';
import { EmptyState } from '../../ui/EmptyState';
import { formatSize } from '../../ui/sizes';
import { formatDate, matches } from './format';
import { IMAGE_TEXTS } from './texts';

const T = IMAGE_TEXTS.chooser;

/** What a form receives: the image URI (`image://C/O/P/NAME:TAG`) and the docker reference. */
export interface ImageChoice {
  name: string;
  tag: string;
  uri: string;
  reference: string;
}

interface Row {
  key: string;
  cells: string[];
}

/**
 * One click selects, a double click chooses at once (as the other choosers); `confirm` names the
 * button that chooses the selection ("Select" an image, "Apply" a tag).
 */
function PickTable({
  rows,
  confirm,
  onChoose,
}: {
  rows: Row[];
  confirm: string;
  onChoose(key: string): void;
}) {
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <>
      <DataTable
        headless
        table={{ highlightOnHover: true }}
        rows={rows}
        rowKey={(r) => r.key}
        onRowClick={(r) => setSelected(r.key)}
        selected={(r) => selected === r.key}
        rowProps={(r) => ({
          'aria-selected': selected === r.key,
          onDoubleClick: () => onChoose(r.key),
        })}
        columns={Array.from(
          { length: Math.max(0, ...rows.map((r) => r.cells.length)) },
          (_, i) => ({
            cell: (r: Row) => r.cells[i],
          }),
        )}
      />
      <Group justify="flex-end">
        <Button disabled={!selected} onClick={() => selected && onChoose(selected)}>
          {confirm}
        </Button>
      </Group>
    </>
  );
}

/** "Choose Image": one image of the project. */
export function ChooseImageModal(props: {
  place: ProjectPlace;
  opened: boolean;
  onClose(): void;
  onChoose(image: ImageRepo): void;
}) {
  const images = useImages(props.opened ? props.place : null);
  const [search, setSearch] = useState('');
  const all = images.data?.images ?? [];
  const list = all.filter((i) => matches(i, search));
  const choose = (name: string) => {
    const found = all.find((i) => i.name === name);
    if (found) props.onChoose(found);
  };
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={T.image} size={640} centered>
      <Stack>
        <TextInput
          aria-label={IMAGE_TEXTS.search}
          placeholder={IMAGE_TEXTS.search}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        {images.isPending && props.opened ? (
          <Loader aria-label={T.image} />
        ) : images.data && !images.data.available ? (
          <Text c="dimmed">{IMAGE_TEXTS.unavailable}</Text>
        ) : list.length === 0 ? (
          <EmptyState title={IMAGE_TEXTS.empty} />
        ) : (
          <PickTable
            rows={list.map((i) => ({ key: i.name, cells: [i.name, `${i.tags.length} tags`] }))}
            confirm={T.select}
            onChoose={choose}
          />
        )}
      </Stack>
    </Modal>
  );
}

/** "Choose Image Tag": one tag of the chosen image, with its created time and size. */
export function ChooseImageTagModal(props: {
  place: ProjectPlace;
  image: ImageRepo | null;
  onClose(): void;
  onBack?(): void;
  onChoose(choice: ImageChoice): void;
}) {
  const details = useImageDetails(props.place, props.image?.name ?? null);
  const tags: ImageTag[] = details.data?.tags ?? [];
  const choose = (tag: string) => {
    const d = details.data;
    if (!d) return;
    const p = props.place;
    props.onChoose({
      name: d.name,
      tag,
      uri: `${imageUri(p.clusterName, p.orgName, p.projectName, d.name)}:${tag}`,
      reference: `${d.image}:${tag}`,
    });
  };
  const cell = (t: ImageTag) => [
    t.tag,
    t.createdAt ? formatDate(t.createdAt) : '',
    t.size === null ? '' : formatSize(t.size),
  ];
  return (
    <Modal opened={!!props.image} onClose={props.onClose} title={T.tag} size={640} centered>
      <Stack>
        <Text size="sm" c="dimmed">
          {props.image?.name}
        </Text>
        {details.isPending ? (
          <Loader aria-label={T.tag} />
        ) : tags.length === 0 ? (
          <EmptyState title={IMAGE_TEXTS.drawer.noTags} />
        ) : (
          <PickTable
            rows={tags.map((t) => ({ key: t.tag, cells: cell(t) }))}
            confirm={T.apply}
            onChoose={choose}
          />
        )}
        {props.onBack && (
          <Group>
            <Button variant="default" onClick={props.onBack}>
              {T.back}
            </Button>
          </Group>
        )}
      </Stack>
    </Modal>
  );
}

/** Both steps in a row, as the job form uses them: image first, then its tag. */
export function ChooseImageFlow(props: {
  place: ProjectPlace;
  opened: boolean;
  onClose(): void;
  onChoose(choice: ImageChoice): void;
}) {
  const [image, setImage] = useState<ImageRepo | null>(null);
  const close = () => {
    setImage(null);
    props.onClose();
  };
  return (
    <>
      <ChooseImageModal
        place={props.place}
        opened={props.opened && !image}
        onClose={close}
        onChoose={setImage}
      />
      <ChooseImageTagModal
        place={props.place}
        image={props.opened ? image : null}
        onClose={close}
        onBack={() => setImage(null)}
        onChoose={(c) => {
          props.onChoose(c);
          close();
        }}
      />
    </>
  );
}
