import { serveTasks } from '../util/tasks.js';
import { selectMlp, type SelectionData } from './select.js';

// Runs the MLP's selection and refit on a second core while the main thread trains the other families.
serveTasks<SelectionData, Awaited<ReturnType<typeof selectMlp>>>((task) => selectMlp(task));
