/**
 * Icons named in the catalogue, resolved to @ant-design/icons components on demand: each icon is its own small
 * chunk, so the menu does not ship the whole icon set. The catalogue names Outlined icons (the menu style);
 * only those are resolvable, which keeps the lookup table small.
 */
import { lazy, Suspense, type ComponentType } from "react";

const iconModules = import.meta.glob<{ default: ComponentType }>("/node_modules/@ant-design/icons/es/icons/*Outlined.js");
const cache = new Map<string, ComponentType>();

function iconComponent(name: string): ComponentType | undefined {
  const loader = iconModules[`/node_modules/@ant-design/icons/es/icons/${name}.js`];
  if (!loader) return undefined;
  let component = cache.get(name);
  if (!component) {
    component = lazy(loader);
    cache.set(name, component);
  }
  return component;
}

export function NamedIcon({ name }: { name?: string }) {
  const Icon = name ? iconComponent(name) : undefined;
  if (!Icon) return null;
  return (
    <Suspense fallback={<span className="anticon" style={{ width: 14 }} />}>
      <Icon />
    </Suspense>
  );
}
