/**
 * Pyodide's files in the worker, arriving one message each while the worker already starts on
 * those it has (the page downloads them in parallel): each is waited for by name, and a name that
 * is not coming is known at once.
 */
export class ArrivingFiles {
  private readonly files = new Map<string, { file: Promise<Blob>; arrive(file: Blob): void }>();

  constructor(names: readonly string[]) {
    for (const name of names) {
      let arrive!: (file: Blob) => void;
      const file = new Promise<Blob>((resolve) => {
        arrive = resolve;
      });
      this.files.set(name, { file, arrive });
    }
  }

  /** The file, once it has arrived; undefined for a name that is not coming. */
  get(name: string): Promise<Blob> | undefined {
    return this.files.get(name)?.file;
  }

  /** Records a file's arrival (a second one of a name, or one not announced, changes nothing). */
  arrived(name: string, file: Blob): void {
    this.files.get(name)?.arrive(file);
  }
}
