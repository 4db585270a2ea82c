import { Children, isValidElement, useId, type ReactElement, type ReactNode } from 'react';

interface TabItemProps {
  value: string;
  label?: string;
  children?: ReactNode;
}

/** One tab's content; Tabs reads its value and label. */
export function TabItem({ children }: TabItemProps) {
  return <>{children}</>;
}
TabItem.attributes = ['value', 'label'];

/**
 * Accessible tabs (WAI-ARIA tabs pattern). Server-rendered with the first (or default) tab open;
 * the client switches panels by toggling `hidden`, so every panel's text is in the HTML (and shown,
 * each under its label, when JavaScript does not run). Sets with the same `groupId` switch together.
 */
export function Tabs({
  defaultValue,
  groupId,
  children,
}: {
  defaultValue?: string;
  groupId?: string;
  children?: ReactNode;
}) {
  const baseId = useId().replace(/:/g, '');
  const items = Children.toArray(children).filter(
    (child): child is ReactElement<TabItemProps> =>
      isValidElement(child) && typeof (child.props as TabItemProps).value === 'string',
  );
  const selected = items.some((i) => i.props.value === defaultValue) ? defaultValue : items[0]?.props.value;
  return (
    <div className="tabs" data-tabs="" data-group={groupId}>
      <div role="tablist" className="tabs-list">
        {items.map((item) => {
          const active = item.props.value === selected;
          return (
            <button
              key={item.props.value}
              type="button"
              role="tab"
              className="tabs-tab"
              id={`${baseId}-tab-${item.props.value}`}
              aria-selected={active}
              aria-controls={`${baseId}-panel-${item.props.value}`}
              tabIndex={active ? 0 : -1}
              data-tab={item.props.value}
            >
              {item.props.label ?? item.props.value}
            </button>
          );
        })}
      </div>
      {items.map((item) => (
        <div
          key={item.props.value}
          role="tabpanel"
          className="tabs-panel"
          id={`${baseId}-panel-${item.props.value}`}
          aria-labelledby={`${baseId}-tab-${item.props.value}`}
          hidden={item.props.value !== selected}
          data-tab-panel={item.props.value}
          data-tab-label={item.props.label ?? item.props.value}
        >
          {item.props.children}
        </div>
      ))}
    </div>
  );
}
Tabs.attributes = ['defaultValue', 'groupId'];
