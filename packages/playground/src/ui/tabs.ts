/**
 * A WAI-ARIA tablist over existing markup (`role="tab"` buttons with
 * `aria-controls`): click or arrow keys select, Home/End jump, only the
 * selected tab is in the Tab order (roving tabindex).
 */
export function setUpTabs(tablist: HTMLElement, onSelect: (tabId: string) => void): void {
  const tabs = [...tablist.querySelectorAll<HTMLElement>('[role="tab"]')];

  function select(tab: HTMLElement, focus: boolean): void {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute("aria-selected", String(selected));
      other.tabIndex = selected ? 0 : -1;
      const panel = document.getElementById(other.getAttribute("aria-controls") ?? "");
      if (panel !== null) panel.hidden = !selected;
    }
    if (focus) tab.focus();
    onSelect(tab.id);
  }

  for (const tab of tabs) tab.addEventListener("click", () => select(tab, false));
  tablist.addEventListener("keydown", (event) => {
    const current = tabs.indexOf(document.activeElement as HTMLElement);
    if (current === -1) return;
    const next = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(tabs[(next + tabs.length) % tabs.length]!, true);
  });
}
