export function EmptyState() {
  return (
    <section class="empty" aria-label="Getting started">
      <h2>Plan before you code</h2>
      <p>
        Describe what you want to build. The plan agent researches the workspace without changing it, asks when a choice
        matters, and proposes one plan for you to approve.
      </p>
      <ul class="hints">
        <li>
          <code>/plan</code> enter planning
        </li>
        <li>
          <code>/plan off</code> leave planning
        </li>
        <li>
          <code>/mode build</code> or <code>/mode auto</code> switch agent
        </li>
      </ul>
    </section>
  );
}
