import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import JobsListPage from './list/JobsListPage';
import './styles';

// The form engine and the job page are big; the list is what most visits need first.
const CreateJobPage = lazy(() => import('./create/CreateJobPage'));
const JobPage = lazy(() => import('./job/JobPage'));

/** The Jobs area: `/jobs`, `/jobs/new` and `/jobs/:jobId/*`. */
export default function JobsPage() {
  return (
    <Routes>
      <Route index element={<JobsListPage />} />
      <Route path="new" element={<CreateJobPage />} />
      <Route path=":jobId/*" element={<JobPage />} />
    </Routes>
  );
}
