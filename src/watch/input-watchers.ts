import type { Stats } from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { BookConfig } from '../shared/model/config.js';
import { isInsideFolder } from '../core/paths.js';

/** A change to one of the book's inputs. */
export interface InputChange {
  /** What happened, for the log: `change book/en/x.mdx`. */
  reason: string;
  /** The config changed: everything is built again (it may move the base path). */
  config: boolean;
  /** A file of the static folders changed: they are read again. */
  staticFiles: boolean;
}

export const staticDirsOf = (config: BookConfig) => [path.resolve(config.rootDir, config.staticDir)];
const isInside = (file: string, folder: string) => file === folder || isInsideFolder(file, folder);
const isChapter = (file: string) => file.endsWith('.mdx');

/**
 * Watches the chapters, the static folders, the page template's folder and the config. The same
 * save often comes twice (chokidar watches the file and its folder, and the second event waits
 * while a build holds the event loop): a second event with the same size and time is dropped.
 * A real change hiding behind them (a coarse clock) is caught by the Builder's own check of what
 * it read (Builder.inputsChangedOnDisk), after which forgetSeen() lets every event through again.
 */
export class InputWatchers {
  private watchers: FSWatcher[] = [];
  /** Size and modification time of the chapters (and config) whose change events were let through. */
  private readonly seenChanges = new Map<string, string>();

  constructor(
    private readonly configPath: string,
    private readonly templateFile: string,
    private readonly onChange: (change: InputChange) => void,
    private readonly log: (line: string) => void,
  ) {}

  forgetSeen(): void {
    this.seenChanges.clear();
  }

  /** (Re)starts the watchers on the folders of a config; resolves when they are ready. */
  watch(config: BookConfig): Promise<void> {
    void this.close();
    const contentDir = path.resolve(config.rootDir, config.contentDir);
    const staticDirs = staticDirsOf(config);
    const folders = [
      contentDir,
      ...staticDirs.filter((dir) => !isInside(dir, contentDir)),
      path.dirname(this.templateFile),
    ];
    const onEvent = (event: string, file: string, stats?: Stats) => {
      if (file === path.dirname(this.configPath)) return;
      const isConfig = file === this.configPath;
      if (event === 'change' && stats && (isConfig || isChapter(file)) && this.seenBefore(file, stats)) return;
      this.onChange({
        reason: `${event} ${path.relative(process.cwd(), file)}`,
        config: isConfig,
        staticFiles: staticDirs.some((dir) => isInside(file, dir)),
      });
    };
    // Editors (and writeFileSync) truncate, then write, and chokidar drops a file's events that
    // follow its last one by less than 5 ms: a build can read the file half saved, and the write's
    // own event may never come. Chapters and the config are built at once, without waiting for
    // their size to settle (10 ms and more of every save's time): the Builder knows what it read,
    // and a half-saved file is read again, before an error is reported (an empty chapter has no
    // front matter) and after a build that succeeded (see WatchSession). Other files (images, the
    // template) are not checked so: for them chokidar waits until the size is unchanged for 10 ms.
    const chapters = watch(contentDir, {
      ignoreInitial: true,
      ignored: (file, stats) => stats !== undefined && stats.isFile() && !isChapter(file),
    });
    const awaitWriteFinish = { stabilityThreshold: 10, pollInterval: 5 };
    const others = watch([...folders], { ignoreInitial: true, awaitWriteFinish, ignored: isChapter });
    // The config is watched through its folder: `git checkout` and many editors delete and
    // recreate the file, which a watch on the file itself would not survive.
    const configFolder = path.dirname(this.configPath);
    const configWatcher = watch(configFolder, {
      ignoreInitial: true,
      depth: 0,
      ignored: (file) => file !== configFolder && file !== this.configPath,
    });
    this.watchers = [chapters, others, configWatcher];
    for (const watcher of this.watchers) {
      watcher.on('all', onEvent);
      watcher.on('error', (error) => this.log(`watcher: ${(error as Error).message}`));
    }
    return Promise.all(
      this.watchers.map((watcher) => new Promise<void>((resolve) => watcher.once('ready', () => resolve()))),
    ).then(() => {});
  }

  async close(): Promise<void> {
    const closing = this.watchers;
    this.watchers = [];
    await Promise.all(closing.map((watcher) => watcher.close()));
  }

  /** Records a change event's size and time; true when the last event of the file had the same. */
  private seenBefore(file: string, stats: Stats): boolean {
    const signature = `${stats.size} ${stats.mtimeMs}`;
    if (this.seenChanges.get(file) === signature) return true;
    this.seenChanges.set(file, signature);
    return false;
  }
}
