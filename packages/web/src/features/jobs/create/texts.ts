import { JOB_TEXTS } from '@orrery/contract';

/** Every text of the Create new job page. */
export const CREATE_JOB_TEXTS = {
  title: 'Create new job',
  back: 'Jobs',
  submit: 'Create job',
  cancel: 'Cancel',
  templateMissing: JOB_TEXTS.templateMissing,
  noTemplate: JOB_TEXTS.noTemplate,
  somethingWentWrong: 'Something went wrong',
  missingProject: 'Choose a project to create a job in it.',
  loading: 'Loading the job template',
  processRuntime: 'Runs on the host system',
  jobsRefused: 'Jobs cannot run on this installation',
  notIsolated: 'Jobs are not isolated',
  volumesRefused: 'Volumes cannot be mounted here',
  httpRefused: 'HTTP ports cannot be served here',
  imageNotUsed:
    "This installation runs jobs on the process runtime: the image is not used, and the command runs on the host system's tools.",
} as const;

/** Forms are at most 720 px wide. */
export const FORM_MAX_WIDTH = 720;
