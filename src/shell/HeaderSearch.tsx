/**
 * Header search (spec 2.4, 9): fuzzy search (Fuse, threshold 0.4, title 0.7, path 0.3) over the translated
 * titles of the routes the user may open. A plain input with a result menu (no select component: the console
 * bundle stays small), Fuse loaded with the first search. On a phone it opens in the breadcrumb's place (`block`),
 * focused, and closes once left empty, on Escape or on choosing a page.
 */
import { SearchOutlined } from "@ant-design/icons";
import { Dropdown, Input } from "antd";
import type Fuse from "fuse.js";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { SearchableRoute } from "./routes";

export interface TranslatedRoute {
  path: string;
  title: string;
}

export function translateRoutes(routes: SearchableRoute[], t: (key: string) => string): TranslatedRoute[] {
  return routes.map((r) => ({ path: r.path, title: r.groupTitle ? `${t(r.groupTitle)} > ${t(r.title)}` : t(r.title) }));
}

export const FUSE_OPTIONS = {
  threshold: 0.4,
  keys: [
    { name: "title", weight: 0.7 },
    { name: "path", weight: 0.3 },
  ],
};

export async function routeFuse(routes: TranslatedRoute[]): Promise<Fuse<TranslatedRoute>> {
  const { default: FuseClass } = await import("fuse.js");
  return new FuseClass(routes, FUSE_OPTIONS);
}

export function HeaderSearch({ routes, block, onClose }: { routes: SearchableRoute[]; block?: boolean; onClose?: () => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [query, setQuery] = useState("");
  // titles change with the language
  const translated = useMemo(() => translateRoutes(routes, t), [routes, t, i18n.language]);
  const [fuse, setFuse] = useState<Fuse<TranslatedRoute> | null>(null);
  const searching = query.trim() !== "";
  useEffect(() => {
    if (!searching) return;
    let live = true;
    void routeFuse(translated).then((f) => live && setFuse(f));
    return () => {
      live = false;
    };
  }, [translated, searching]);
  const results = searching && fuse ? fuse.search(query.trim()).slice(0, 10).map(({ item }) => item) : [];
  const go = (path: string) => {
    setQuery("");
    navigate(path);
    onClose?.();
  };
  return (
    <Dropdown
      open={results.length > 0}
      menu={{
        items: results.map((r) => ({ key: r.path, label: <span data-testid={`search-result-${r.path}`}>{r.title}</span> })),
        onClick: ({ key }) => go(key),
      }}
    >
      <Input
        data-testid="header-search"
        allowClear
        value={query}
        placeholder={t("shell.search")}
        prefix={<SearchOutlined />}
        onChange={(e) => setQuery(e.target.value)}
        onPressEnter={() => results[0] && go(results[0].path)}
        onKeyDown={(e) => {
          if (e.key !== "Escape") return;
          setQuery("");
          onClose?.();
        }}
        onBlur={() => query.trim() === "" && onClose?.()}
        autoFocus={block}
        style={block ? { width: "100%", verticalAlign: "middle" } : { width: 150 }}
      />
    </Dropdown>
  );
}
