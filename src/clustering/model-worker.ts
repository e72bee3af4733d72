// Worker thread of the local models: one task per node of the hierarchy (see models.ts).
import { serveTasks } from '../util/tasks.js';
import { fitNodeModel, type ModelData, type ModelTask, type ModelTaskResult } from './models.js';

serveTasks<ModelTask, ModelTaskResult>(
  (task, data) => fitNodeModel(task, data as ModelData),
  (r) => (r.ok ? [r.oof.buffer as ArrayBuffer, r.baselineOof.buffer as ArrayBuffer] : []),
);
