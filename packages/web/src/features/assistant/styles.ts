// Sheets only the assistant uses, loaded with its chunks (see app/styles.ts).
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/NumberInput.css';
import '@mantine/core/styles/Typography.css';
