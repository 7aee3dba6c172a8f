import { Select } from '@mantine/core';
import { SEARCH_MIN, SEARCH_MAX } from '@orrery/contract';
import { PEOPLE_UI } from './texts';

export interface PickerOption {
  value: string;
  label: string;
}

/**
 * Search and pick one user: nothing is listed before 2 characters, then at
 * most SEARCH_MAX matches; the empty text says which of the two applies.
 */
export function UserPicker(props: {
  search: string;
  onSearch(q: string): void;
  options: PickerOption[];
  value: string | null;
  onChange(v: string | null): void;
  emptyText: string;
  error?: string | null;
}) {
  const ready = props.search.trim().length >= SEARCH_MIN;
  return (
    <Select
      label={PEOPLE_UI.user}
      placeholder={PEOPLE_UI.search}
      searchable
      clearable
      data-autofocus
      searchValue={props.search}
      onSearchChange={props.onSearch}
      data={ready ? props.options.slice(0, SEARCH_MAX) : []}
      // The options are already the matches; Mantine's own filter would hide e-mail matches.
      filter={({ options }) => options}
      value={props.value}
      onChange={props.onChange}
      nothingFoundMessage={ready ? props.emptyText : PEOPLE_UI.typeMore}
      error={props.error}
    />
  );
}
