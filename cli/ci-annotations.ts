// Annotations in the CI's own format, so a failed arm or ADR shows on the file in the review.

/** The CI systems whose annotation syntax witness writes. */
export type CiKind = "github" | "azure";

/** The CI this process runs under, from the variables each one sets; null elsewhere. */
export function detectCi(env: Readonly<Record<string, string | undefined>>): CiKind | null {
  if (env.GITHUB_ACTIONS === "true") return "github";
  if (env.TF_BUILD?.toLowerCase() === "true") return "azure";
  return null;
}

/** One annotation: a level, the file it is about (repository-relative), a title and a message. */
export interface Annotation {
  level: "error" | "warning";
  file: string;
  line?: number;
  title: string;
  message: string;
}

// GitHub's workflow-command escaping: data escapes %, CR and LF; properties also : and ,.
const ghData = (s: string) =>
  s.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
const ghProperty = (s: string) => ghData(s).replaceAll(":", "%3A").replaceAll(",", "%2C");
// Azure's logging commands end a property at `;` and the command at `]`.
const azProperty = (s: string) => s.replace(/[;\]\r\n]/g, " ");
const oneLine = (s: string) => s.replace(/\r?\n/g, " ");

/** The annotation as the line `ci` reads from a step's output. */
export function renderAnnotation(ci: CiKind, a: Annotation): string {
  if (ci === "github") {
    const props = [
      `file=${ghProperty(a.file)}`,
      ...(a.line === undefined ? [] : [`line=${a.line}`]),
      `title=${ghProperty(a.title)}`,
    ];
    return `::${a.level} ${props.join(",")}::${ghData(a.message)}`;
  }
  const props = [
    `type=${a.level}`,
    `sourcepath=${azProperty(a.file)}`,
    ...(a.line === undefined ? [] : [`linenumber=${a.line}`]),
  ];
  return `##vso[task.logissue ${props.join(";")}]${oneLine(`${a.title}: ${a.message}`)}`;
}
