/** Presentation options shared by the renderers (none of them changes the analysis). */
export interface RenderOptions {
  /** Hide recommendations (`--issues`). */
  readonly issuesOnly?: boolean;
  /** Prefix insights with their code (`--code`). */
  readonly showCodes?: boolean;
  /** Show example snippets under recommendations (`--verbose`). */
  readonly verbose?: boolean;
  /** Full file names in detail lines instead of base names (`--path`). */
  readonly fullPath?: boolean;
  /** List every threshold, not only those the insights used (`--threshold`). */
  readonly allThresholds?: boolean;
  /** Terminal width in columns. */
  readonly width?: number;
  /** ANSI colours. */
  readonly color?: boolean;
  /** CSV (default mode): each check's level instead of True/False (`--csv-levels`). */
  readonly csvLevels?: boolean;
  /** Detail lines shown per insight (Drishti shows 10). */
  readonly maxDetails?: number;
}

export const DEFAULT_MAX_DETAILS = 10;
