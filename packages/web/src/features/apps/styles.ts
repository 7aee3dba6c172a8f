// Mantine sheets only the apps area uses, loaded with its chunk rather than the first download
// (app/styles.ts holds the shared ones; the stylesheet guard in app/styles.test.ts reads both).
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/Pill.css';
import '@mantine/core/styles/Typography.css';
