// Sheets only the billing area uses, loaded with its chunks (see app/styles.ts).
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/Chip.css';
import '@mantine/core/styles/NumberInput.css';
import '@mantine/core/styles/Pagination.css';
import '@mantine/dates/styles.css';
import '@mantine/core/styles/ColorSwatch.css';
import '@mantine/charts/styles.css';
