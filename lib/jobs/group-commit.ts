/**
 * Group commit: items are written in groups, and whatever arrives while one group is being written
 * goes into the next, so a busy producer gets few, large transactions and an idle one gets its item
 * written at once. One writer at a time; `flush` waits until everything added so far is written.
 * A failed write is handed to `onError` with its items (they are not retried: the caller's rows keep
 * the state that makes them safe, e.g. an email left SENDING is never resent).
 */
export class GroupCommit<T> {
  private pending: T[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly onError: (error: unknown, items: T[]) => void,
  ) {}

  add(item: T): void {
    this.pending.push(item);
    this.kick();
  }

  async flush(): Promise<void> {
    while (this.running) await this.running;
  }

  private kick(): void {
    if (this.running) return;
    this.running = (async () => {
      while (this.pending.length) {
        const group = this.pending.splice(0);
        await this.write(group).catch((e) => this.onError(e, group));
      }
      this.running = null;
    })();
  }
}
