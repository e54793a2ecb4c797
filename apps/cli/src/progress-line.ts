/** A tool's progress as a person reads it: `3/5 (60%) Analysing…`, or `3 Analysing…` without a total. */
export function progressText(progress: {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}): string {
  const count =
    progress.total === undefined || !(progress.total > 0)
      ? String(progress.progress)
      : `${progress.progress}/${progress.total} (${Math.min(100, Math.round((progress.progress / progress.total) * 100))}%)`;
  const message = progress.message?.replace(/\s+/g, ' ').slice(0, 200);
  return message === undefined || message === '' ? count : `${count} ${message}`;
}

/**
 * Progress of one call on standard error: on a terminal one line rewritten in place and cleared
 * when the call ends; elsewhere (a pipe, a log file) one line per notification, which a log keeps.
 */
export function progressLine(
  label: string,
  stream: NodeJS.WriteStream = process.stderr,
): {
  onProgress: (progress: { progress: number; total?: number; message?: string }) => void;
  done: () => void;
} {
  let shown = false;
  return {
    onProgress: (progress) => {
      const text = `${label}: ${progressText(progress)}`;
      if (stream.isTTY) {
        const width = Math.max(20, (stream.columns ?? 80) - 1);
        stream.write(`\r\x1b[K${text.slice(0, width)}`);
        shown = true;
      } else stream.write(`progress ${text}\n`);
    },
    done: () => {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
