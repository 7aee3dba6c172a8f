/** Every text of the images area. */
export const IMAGE_TEXTS = {
  title: 'Images',
  search: 'Search images',
  empty: 'No images found',
  emptyHint: 'Push an image to this project with docker push or apolo image push.',
  missingProject: 'Choose a project to see its images.',
  unavailable: 'Images are unavailable',
  loadFailed: 'Could not load images',
  copied: 'Copied to clipboard',
  copyFailed: 'Could not copy to clipboard',
  columns: { name: 'Name', tags: 'Tags', image: 'Image' },
  drawer: {
    image: 'Image name',
    tags: 'Tags',
    tag: 'Tag',
    created: 'Created',
    size: 'Size',
    unknown: '—',
    copyTag: 'Copy tag',
    copyImage: 'Copy image with tag',
    copyName: 'Copy image name',
    noTags: 'This image has no tags',
  },
  chooser: {
    image: 'Choose Image',
    tag: 'Choose Image Tag',
    select: 'Select',
    /** Image tag: both image and tag are needed to Apply. */
    apply: 'Apply',
    back: 'Back',
    cancel: 'Cancel',
  },
} as const;
