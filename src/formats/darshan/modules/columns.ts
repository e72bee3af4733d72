import type { NameResolver } from '../module-types.js';

/** darshan-parser's file-name, mount-point and fs-type columns for a record id. */
export function nameColumns(names: NameResolver, id: bigint, missing = '(null)'): { file: string; mount: string; fs: string } {
  const name = names.name(id);
  const m = names.mount(name);
  return { file: name ?? missing, mount: m ? m.path : 'UNKNOWN', fs: m ? m.fsType : 'UNKNOWN' };
}

/** Growable list of exact i64 values, for variable-length record parts (OST ids, bins, histograms). */
export class I64List {
  private data = new Float64Array(64);
  private exactValues: Map<number, bigint> | null = null;
  length = 0;

  push(v: bigint): void {
    if (this.length === this.data.length) {
      const d = new Float64Array(this.data.length * 2);
      d.set(this.data);
      this.data = d;
    }
    this.data[this.length] = Number(v);
    if (v > 9007199254740991n || v < -9007199254740991n) (this.exactValues ??= new Map()).set(this.length, v);
    this.length++;
  }

  get(i: number): number {
    return this.data[i];
  }

  exact(i: number): bigint {
    return this.exactValues?.get(i) ?? BigInt(this.data[i]);
  }

  text(i: number): string {
    const b = this.exactValues?.get(i);
    return b !== undefined ? b.toString() : String(this.data[i]);
  }

  /** The values as doubles (a view trimmed to length). */
  values(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}
