import { defineFact } from './define-fact.js';

export default defineFact({
  name: 'job',
  description: 'Job identity from the job record: id, command line, start/end times, process count.',
  compute({ log }) {
    const j = log.job;
    const command = j.exe;
    return {
      jobId: j.jobid.toString(),
      exe: command.trim().split(/\s+/)[0] ?? '',
      command,
      uid: j.uid.toString(),
      startSeconds: Number(j.startTimeSec) + Number(j.startTimeNsec) / 1e9,
      endSeconds: Number(j.endTimeSec) + Number(j.endTimeNsec) / 1e9,
      runSeconds: j.runTimeSeconds,
      processes: Number(j.nprocs),
      darshanVersion: log.header.versionString,
      metadata: j.metadata,
    };
  },
});
