import type { MpiioRecordsFact, MpiioTotalsFact, PosixByFileFact, PosixTotalsFact } from '../../facts/types.js';

/** Hand-made facts for unit cases: every field zero unless given. */
export function posixTotals(p: Partial<PosixTotalsFact>): PosixTotalsFact {
  return {
    records: 1, reads: 0, writes: 0, bytesRead: 0, bytesWritten: 0, smallReads: 0, smallWrites: 0, memNotAligned: 0,
    fileNotAligned: 0, consecReads: 0, seqReads: 0, consecWrites: 0, seqWrites: 0, maxByteReadMax: 0, maxByteWrittenMax: 0, ...p,
  };
}

/** One file (id 1) holding everything. */
export function posixOneFile(p: { reads?: number; writes?: number; smallReads?: number; smallWrites?: number }): PosixByFileFact {
  const one = (v = 0) => Float64Array.of(v);
  return {
    ids: BigUint64Array.of(1n), reads: one(p.reads), writes: one(p.writes), smallReads: one(p.smallReads), smallWrites: one(p.smallWrites),
    bytesRead: one(), bytesWritten: one(), maxByteRead: one(), maxByteWritten: one(),
  };
}

export function mpiioTotals(p: Partial<MpiioTotalsFact>): MpiioTotalsFact {
  return { records: 1, indepReads: 0, indepWrites: 0, collReads: 0, collWrites: 0, nbReads: 0, nbWrites: 0, bytesRead: 0, bytesWritten: 0, ...p };
}

/** MPI-IO records of one file, one record per entry of `indep` ([reads, writes] per rank). */
export function mpiioRecords(indep: [number, number][]): MpiioRecordsFact {
  const n = indep.length;
  const ir = Float64Array.from(indep.map((x) => x[0]));
  const iw = Float64Array.from(indep.map((x) => x[1]));
  return {
    ids: new BigUint64Array(n).fill(1n),
    ranks: Float64Array.from(indep.map((_x, i) => i)),
    indepReads: ir,
    indepWrites: iw,
    byFile: { ids: BigUint64Array.of(1n), indepReads: Float64Array.of(ir.reduce((a, b) => a + b, 0)), indepWrites: Float64Array.of(iw.reduce((a, b) => a + b, 0)), collReads: Float64Array.of(0), collWrites: Float64Array.of(0) },
  };
}
