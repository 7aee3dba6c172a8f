import type { Db } from '../../db/client.js';
import { conflict } from '../../http/errors.js';
import { deleteProject, engineBakeActive } from './store.js';

/**
 * The flow API's records are what the `apolo-flow` client sends, stored as sent: the routes check
 * who may do what and shape the wire, and read and write them through these functions of the
 * stores. What the API decides itself is below.
 */
export {
  attemptByNumber,
  attemptWithProject,
  attemptsOf,
  bakeByName,
  bakeWithProject,
  bakesOf,
  cacheEntryById,
  cacheEntryByKey,
  configFileWithProject,
  deleteCacheEntries,
  insertAttempt,
  insertBake,
  insertConfigFile,
  insertProject,
  insertTask,
  lastAttempts,
  placeOfProject,
  projectById,
  projectByName,
  projectsMatching,
  replaceAttempt,
  replaceTask,
  taskByYamlId,
  taskWithProject,
  tasksOf,
  upsertCacheEntry,
} from './store.js';
export {
  bakeImageByRef,
  bakeImageWithProject,
  bakeImagesOf,
  insertBakeImage,
  insertLiveJob,
  liveJobById,
  liveJobByYamlId,
  liveJobsOf,
  patchBakeImage,
  upsertLiveJob,
} from './store-records.js';

/**
 * Deletes a flow with its bakes, attempts and tasks; 409 while the engine runs one of its bakes,
 * which it would go on driving after the bake is gone.
 */
export async function deleteFlow(db: Db, id: string) {
  if (await engineBakeActive(db, id)) throw conflict('Cancel the running bake first');
  await deleteProject(db, id);
}
