/**
 * The Tasks tree view (UI-3): mirrors the task_tracker checklist on disk (TRK-5, TRK-6).
 *
 * It reads, never writes: the active plan's sidecar when the host named one, otherwise the newest
 * `.vtcode/plans/*.tasks.md` weighed against `.vtcode/tasks/current_task.md` (core/tracker
 * precedence). It re-reads on every change in `.vtcode/plans` and `.vtcode/tasks`, including a
 * checkbox ticked by hand; see node/folder-watch.ts for why that is not a VS Code file watcher.
 *
 * Styling (TRK-6). Tree item labels are plain text: VS Code cannot strike them through or make
 * them bold or italic, and `TreeItemLabel.highlights` render as filter-match boxes (they read as a
 * search hit), so colour and icons carry the status instead. Done rows: check icon, label dimmed.
 * The current row: arrow icon and label in the link/accent colour, the colour the chat panel's
 * compact `» …` line uses. Blocked rows: warning icon, label and a `!` badge in the warning
 * colour. Pending rows keep the default style. Colours reach labels through a FileDecoration on
 * each row's `vtplan-task:` URI.
 */
import * as vscode from 'vscode';
import { posix as path } from 'node:path';
import { nodeFileSystem } from '../node/fs';
import { watchFolders, type FolderWatch } from '../node/folder-watch';
// The tracker's model and files only: its index also re-exports plan distillation, which
// brings the markdown parser into the activation bundle.
import {
  currentItem,
  formatIndexPath,
  totalsOf,
  type Checklist,
  type TaskItem,
  type TaskStatus,
} from '../core/tracker/model';
import {
  GLOBAL_TRACKER_FILE,
  loadTracker,
  locateNewestTracker,
  PLANS_DIR,
  type TrackerLocation,
} from '../core/tracker/store';
import { errorMessage } from '../core/errors';

const DECORATION_SCHEME = 'vtplan-task';
const WATCHED_FOLDERS = [PLANS_DIR, path.dirname(GLOBAL_TRACKER_FILE)];
const REFRESH_DELAY_MS = 50;

interface Style {
  icon: string;
  iconColor?: string;
  /** Label colour, applied through the decoration provider. */
  labelColor?: string;
}

const STYLE: Readonly<Record<TaskStatus, Style>> = {
  completed: { icon: 'check', iconColor: 'disabledForeground', labelColor: 'disabledForeground' },
  in_progress: { icon: 'circle-filled', iconColor: 'charts.blue' },
  pending: { icon: 'circle-large-outline' },
  blocked: { icon: 'warning', iconColor: 'list.warningForeground', labelColor: 'list.warningForeground' },
};
const CURRENT: Style = { icon: 'arrow-right', iconColor: 'textLink.foreground', labelColor: 'textLink.foreground' };

const STATUS_WORD: Readonly<Record<TaskStatus, string>> = {
  completed: 'Done',
  in_progress: 'In progress',
  pending: 'Pending',
  blocked: 'Blocked',
};

/** One row of the view as plain data (what the tree shows, for tests and the host). */
export interface TaskRowSnapshot {
  indexPath: string;
  label: string;
  status: TaskStatus;
  current: boolean;
  icon: string;
  iconColor: string | null;
  labelColor: string | null;
  description: string;
  tooltip: string;
  files: string[];
  children: TaskRowSnapshot[];
}

export interface TasksSnapshot {
  /** View description, e.g. `3/8`; `undefined` while there is no checklist. */
  description: string | undefined;
  /** Checklist title, shown as the view message. */
  title: string | undefined;
  /** The tracker file the view mirrors. */
  source: string | null;
  items: TaskRowSnapshot[];
}

/** What the host and the extension-host tests use. */
export interface TasksViewModel {
  snapshot(): TasksSnapshot;
  /** Mirror this plan's sidecar (plan file path, absolute or workspace-relative); `undefined` goes back to "newest". */
  setActivePlan(planFile: string | undefined): Promise<void>;
  /** Re-read the files now; resolves when the view shows the result. */
  refresh(): Promise<void>;
  readonly onDidChange: vscode.Event<void>;
}

interface Node {
  item: TaskItem;
  path: number[];
  current: boolean;
}

/** Where the view reads: the folder the chat session works in (session-folders.ts), followed as it changes. */
export interface TasksFolder {
  root(): string | undefined;
  readonly onDidChange: vscode.Event<void>;
}

/** What a row looks like; a blocked current task stays in the warning colour. */
type Tone = TaskStatus | 'current';
const TONES: readonly Tone[] = ['completed', 'in_progress', 'pending', 'blocked', 'current'];

/** A row of the Tasks tree. */
export type TaskNode = Node;

function toneOf(node: Node): Tone {
  return node.current && node.item.status !== 'blocked' ? 'current' : node.item.status;
}

function styleOf(tone: Tone): Style {
  return tone === 'current' ? CURRENT : STYLE[tone];
}

export class TasksView
  implements vscode.TreeDataProvider<Node>, vscode.FileDecorationProvider, TasksViewModel, vscode.Disposable
{
  private checklist: Checklist | null = null;
  private source: string | null = null;
  private current: string | null = null;
  private activePlan: string | undefined;
  private root: string | undefined;
  private view: vscode.TreeView<Node> | undefined;
  private watcher: FolderWatch | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly treeChanged = new vscode.EventEmitter<Node | undefined>();
  private readonly decorationsChanged = new vscode.EventEmitter<vscode.Uri[] | undefined>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.treeChanged.event;
  readonly onDidChangeFileDecorations = this.decorationsChanged.event;
  readonly onDidChange = this.changed.event;

  private readError: string | null = null;

  constructor(private readonly folder: TasksFolder) {
    this.disposables.push(this.treeChanged, this.decorationsChanged, this.changed);
  }

  attach(view: vscode.TreeView<Node>): void {
    this.view = view;
    this.disposables.push(
      view,
      vscode.window.registerFileDecorationProvider(this),
      this.folder.onDidChange(() => this.watch()),
    );
    this.watch();
  }

  /**
   * Follows the session folder. Its folders are watched from the first read on, which the timer
   * runs: activation (and a folder switch) does no file system work while VS Code waits on it.
   */
  private watch(): void {
    this.watcher?.dispose();
    this.watcher = undefined;
    this.root = this.folder.root()?.replace(/\\/g, '/');
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.root && !this.watcher) {
        this.watcher = watchFolders(this.root, WATCHED_FOLDERS, () => this.schedule());
        // Attaching reports the folders that exist; the read below covers them.
        if (this.timer) clearTimeout(this.timer);
        this.timer = undefined;
      }
      void this.refresh();
    }, REFRESH_DELAY_MS);
  }

  async setActivePlan(planFile: string | undefined): Promise<void> {
    this.activePlan = planFile;
    await this.refresh();
  }

  /** Serialised: a refresh asked for while one runs reads again once it ends. */
  refresh(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.load();
      } while (this.again);
      this.running = null;
    })();
    return this.running;
  }

  private async load(): Promise<void> {
    const root = this.root;
    let checklist: Checklist | null = null;
    let source: string | null = null;
    this.readError = null;
    if (root) {
      try {
        const loc: TrackerLocation = this.activePlan
          ? { root, planFile: this.activePlan, planActive: true }
          : await locateNewestTracker(nodeFileSystem, root);
        const snapshot = await loadTracker(nodeFileSystem, loc);
        checklist = snapshot.checklist;
        source =
          snapshot.source === 'sidecar'
            ? (snapshot.sidecar?.path ?? null)
            : snapshot.source === 'global'
              ? snapshot.global.path
              : null;
      } catch (err) {
        this.readError = `Could not read the task files: ${errorMessage(err)}`;
      }
    }
    this.checklist = checklist;
    this.source = source;
    const cur = checklist ? currentItem(checklist) : undefined;
    this.current = cur ? formatIndexPath(cur.path) : null;
    if (this.view) {
      this.view.description = this.viewDescription();
      this.view.message = this.readError ?? (checklist && checklist.items.length > 0 ? checklist.title : undefined);
    }
    this.treeChanged.fire(undefined);
    this.decorationsChanged.fire(undefined);
    this.changed.fire();
  }

  private viewDescription(): string | undefined {
    if (!this.checklist) return undefined;
    const t = totalsOf(this.checklist);
    return `${t.completed}/${t.total}`;
  }

  private nodesOf(items: readonly TaskItem[], prefix: number[]): Node[] {
    return items.map((item, i) => {
      const p = [...prefix, i + 1];
      return { item, path: p, current: formatIndexPath(p) === this.current };
    });
  }

  getChildren(node?: Node): Node[] {
    if (!this.checklist) return [];
    return node ? this.nodesOf(node.item.children, node.path) : this.nodesOf(this.checklist.items, []);
  }

  getTreeItem(node: Node): vscode.TreeItem {
    const row = this.rowOf(node, false);
    const treeItem = new vscode.TreeItem(
      row.label,
      node.item.children.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    treeItem.id = `${row.indexPath}:${row.label}`;
    treeItem.description = row.description;
    treeItem.iconPath = new vscode.ThemeIcon(
      row.icon,
      row.iconColor ? new vscode.ThemeColor(row.iconColor) : undefined,
    );
    treeItem.resourceUri = vscode.Uri.from({
      scheme: DECORATION_SCHEME,
      path: `/${row.indexPath}`,
      query: toneOf(node),
    });
    const tooltip = new vscode.MarkdownString(row.tooltip);
    tooltip.isTrusted = { enabledCommands: ['vscode.open'] };
    treeItem.tooltip = tooltip;
    treeItem.accessibilityInformation = {
      label: `${STATUS_WORD[node.item.status]}${node.current ? ', current' : ''}: ${row.label}`,
    };
    const first = this.fileUri(node.item.files[0]);
    if (first) treeItem.command = { command: 'vscode.open', title: 'Open File', arguments: [first] };
    treeItem.contextValue = `vtplan.task.${node.item.status}`;
    return treeItem;
  }

  getParent(node: Node): Node | undefined {
    if (!this.checklist || node.path.length < 2) return undefined;
    let items = this.checklist.items;
    let parent: Node | undefined;
    for (const [depth, n] of node.path.slice(0, -1).entries()) {
      const item = items[n - 1];
      if (!item) return undefined;
      parent = {
        item,
        path: node.path.slice(0, depth + 1),
        current: formatIndexPath(node.path.slice(0, depth + 1)) === this.current,
      };
      items = item.children;
    }
    return parent;
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if (uri.scheme !== DECORATION_SCHEME) return undefined;
    const tone = TONES.find((t) => t === uri.query);
    const color = tone && styleOf(tone).labelColor;
    if (!tone || !color) return undefined;
    return new vscode.FileDecoration(
      tone === 'blocked' ? '!' : undefined,
      tone === 'current' ? 'Current task' : STATUS_WORD[tone],
      new vscode.ThemeColor(color),
    );
  }

  private fileUri(file: string | undefined): vscode.Uri | undefined {
    if (!file || !this.root) return undefined;
    return vscode.Uri.file(path.isAbsolute(file) ? file : path.join(this.root, file));
  }

  private rowOf(node: Node, withChildren: boolean): TaskRowSnapshot {
    const { item } = node;
    const style = styleOf(toneOf(node));
    const label = plainLabel(item.description);
    const files = item.files;
    const description =
      files.length === 0
        ? ''
        : files.length === 1
          ? path.basename(files[0] as string)
          : `${path.basename(files[0] as string)} +${files.length - 1}`;
    return {
      indexPath: formatIndexPath(node.path),
      label,
      status: item.status,
      current: node.current,
      icon: style.icon,
      iconColor: style.iconColor ?? null,
      labelColor: style.labelColor ?? null,
      description,
      tooltip: this.tooltipOf(node),
      files: [...files],
      children: withChildren ? this.nodesOf(item.children, node.path).map((c) => this.rowOf(c, true)) : [],
    };
  }

  private tooltipOf(node: Node): string {
    const { item } = node;
    const lines = [
      `**${formatIndexPath(node.path)}** ${inlineMarkdown(item.description)}`,
      '',
      `Status: ${STATUS_WORD[item.status]}${node.current ? ' (current)' : ''}`,
    ];
    if (item.files.length > 0) {
      const links = item.files.map((f) => {
        const uri = this.fileUri(f);
        const arg = uri ? encodeURIComponent(JSON.stringify([uri.toJSON()])) : '';
        return uri ? `[${escapeMarkdown(f)}](command:vscode.open?${arg})` : escapeMarkdown(f);
      });
      lines.push('', `Files: ${links.join(', ')}`);
    }
    if (item.outcome) lines.push('', `Outcome: ${inlineMarkdown(item.outcome)}`);
    if (item.verify.length > 0) lines.push('', 'Verify:', ...item.verify.map((v) => `- ${codeSpan(v)}`));
    return lines.join('\n');
  }

  snapshot(): TasksSnapshot {
    return {
      description: this.viewDescription(),
      title: this.checklist?.title,
      source: this.source,
      items: this.checklist ? this.nodesOf(this.checklist.items, []).map((n) => this.rowOf(n, true)) : [],
    };
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.watcher?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** Tree labels are plain text: inline markdown (code spans, emphasis) loses its markers there. */
function plainLabel(markdown: string): string {
  return markdown
    .replace(/`([^`]+)`/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_\s][^*_]*?)[*_](?![\w*])/g, '$1$2');
}

function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_[\]<>])/g, '\\$1');
}

/**
 * Task text from the tracker files keeps its inline markdown (code spans, emphasis) in the
 * tooltip but never becomes a link: the tooltip may run `vscode.open`, and a checklist written by
 * a model or committed to a repository must not smuggle a link in. Outside code spans, `[`, `]`,
 * `<` and `>` are escaped (no links, images or autolinks); code spans are found the way CommonMark
 * finds them (a backslash escapes a backtick; a span closes on a run of exactly its length).
 */
function inlineMarkdown(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '\\' && i + 1 < text.length && /[!-/:-@[-`{-~]/.test(text[i + 1] as string)) {
      out += text.slice(i, i + 2);
      i += 2;
    } else if (ch === '`') {
      const open = /^`+/.exec(text.slice(i))?.[0] ?? '`';
      const close = new RegExp(`(?<!\`)${open}(?!\`)`, 'g');
      close.lastIndex = i + open.length;
      const end = close.exec(text);
      const stop = end ? end.index + open.length : i + open.length;
      out += text.slice(i, stop);
      i = stop;
    } else {
      out += /[[\]<>]/.test(ch) ? `\\${ch}` : ch;
      i += 1;
    }
  }
  return out;
}

/** A code span that holds any text, backticks included (CommonMark: a longer fence, padded). */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}
