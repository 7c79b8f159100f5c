import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';

export interface TabItem {
  id: string;
  label: string;
}

/**
 * WAI-ARIA tabs: one tab stop for the list, arrow keys (and Home/End) move between tabs and
 * activate them, Tab moves on into the panel.
 */
export function Tabs({ label, tabs, selected, onSelect, children }: { label: string; tabs: TabItem[]; selected: string; onSelect: (id: string) => void; children: ComponentChildren }) {
  const list = useRef<HTMLDivElement>(null);
  const focusTab = (index: number) => {
    const tab = tabs[(index + tabs.length) % tabs.length]!;
    onSelect(tab.id);
    list.current?.querySelector<HTMLButtonElement>(`#tab-${tab.id}`)?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const index = tabs.findIndex((tab) => tab.id === selected);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    focusTab(next);
  };
  return (
    <div class="tabs">
      <div class="tabs__list" role="tablist" aria-label={label} ref={list} onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`tab-${tab.id}`}
            class="tabs__tab"
            aria-selected={tab.id === selected}
            aria-controls={`panel-${tab.id}`}
            tabIndex={tab.id === selected ? 0 : -1}
            onClick={() => onSelect(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div class="tabs__panel" role="tabpanel" id={`panel-${selected}`} aria-labelledby={`tab-${selected}`} tabIndex={0}>
        {children}
      </div>
    </div>
  );
}
