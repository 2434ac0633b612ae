/**
 * /secservice (spec 2.4, 4.1): a system user chooses the provider to manage (and acts with its role keys);
 * a provider or provider-staff user chooses a school. A row is chosen by its Manage button, its name or a click
 * anywhere on it; a provider or school whose term has run out is flagged beside its end date.
 */
import { DownOutlined } from "@ant-design/icons";
import { Button, Card, Dropdown, Input, Layout, Space, Table, Typography, type MenuProps } from "antd";
import { useCallback, useEffect, useState, type HTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { normaliseUserType } from "../../common/roleKeys";
import { backToOperator, chooseSchool, enterProvider, getCookie, type ProviderFacts } from "../../providers/session";
import { weapi } from "../../providers/weapi";
import { TermEnd } from "../lib/ExpiredTag";
import { ChangePasswordDialog } from "../shell/ChangePasswordDialog";
import { HOME_PATH } from "../shell/routes";
import { resetTabs } from "../shell/tabs";
import { useShellActions } from "../shell/useShellActions";

interface Row {
  id: number;
  title: string;
  end_time?: string;
  endtime?: string;
}

const PAGE_SIZES = [10, 20, 30, 50];

export default function SelectionPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const actions = useShellActions();
  const actingType = normaliseUserType(getCookie("select_user_type"));
  const [mode, setMode] = useState<"provider" | "school">(actingType === "system" ? "provider" : "school");
  const [query, setQuery] = useState("");
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(20);
  const [rows, setRows] = useState<Row[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [passwordOpen, setPasswordOpen] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const payload: Record<string, unknown> = { page, limit, ...(query ? { title: query } : {}) };
      const res =
        mode === "provider"
          ? await weapi<{ items: Row[]; total: number }>("adminapiv2", "servicelist", payload)
          : await weapi<{ items: Row[]; total: number }>("adminapiv2", "schoollist", { ...payload, sysid: getCookie("select_sysid") });
      if (res.return_code === "SUCCESS") {
        setRows(res.data?.items ?? []);
        setTotal(res.data?.total ?? 0);
      }
    } catch {
      // the client already showed the error
    } finally {
      setLoading(false);
    }
  }, [mode, page, limit, query]);

  useEffect(() => {
    void load();
  }, [load]);

  const select = async (row: Row) => {
    if (mode === "provider") {
      const res = await weapi<{ items?: ProviderFacts }>("adminapiv2", "serviceinfo", { id: row.id }).catch(() => null);
      if (res?.return_code !== "SUCCESS" || !res.data?.items) return;
      enterProvider(res.data.items);
    } else {
      chooseSchool(row.id);
    }
    resetTabs();
    navigate(HOME_PATH);
  };

  const toConsole = () => {
    if (actions.loginType === "system") backToOperator();
    resetTabs();
    navigate(HOME_PATH);
  };

  const menuItems: MenuProps["items"] = [
    ...(actions.canSwitchProvider ? [{ key: "provider", label: <span data-testid="selection-switch-provider">{t("shell.switch_provider")}</span> }] : []),
    { key: "password", label: <span data-testid="selection-password">{t("dialog.change_password")}</span> },
    { key: "logout", label: <span data-testid="selection-logout">{t("shell.logout")}</span> },
  ];

  return (
    <Layout style={{ minHeight: "100vh" }} data-testid="selection-page">
      {/* on a phone the prompt takes its own row rather than squeezing to a letter per line */}
      <Layout.Header
        style={{
          display: "flex",
          flexWrap: "wrap",
          alignItems: "center",
          gap: "8px 16px",
          height: "auto",
          minHeight: 64,
          lineHeight: "normal",
          paddingBlock: 12,
          paddingInline: 16,
          background: "transparent",
          borderBottom: "1px solid rgba(5,5,5,0.06)",
        }}
      >
        <Typography.Text strong style={{ flex: "1 1 220px" }} data-testid="selection-prompt">
          {t(mode === "provider" ? "pages.choose_provider" : "pages.choose_school")}
        </Typography.Text>
        <Button type="link" onClick={toConsole} data-testid="selection-console">
          {t(actions.loginType === "system" ? "pages.operator_console" : "pages.provider_console")}
        </Button>
        <Dropdown
          trigger={["click"]}
          menu={{
            items: menuItems,
            onClick: ({ key }) => {
              if (key === "provider") {
                setMode("provider");
                setPage(1);
              } else if (key === "password") setPasswordOpen(true);
              else actions.onLogout();
            },
          }}
        >
          <Button data-testid="selection-menu">
            <Space>
              {t("pages.account")}
              <DownOutlined />
            </Space>
          </Button>
        </Dropdown>
      </Layout.Header>
      <Layout.Content style={{ padding: 16 }}>
        <Card>
          <Input.Search
            data-testid="selection-search"
            allowClear
            placeholder={t("pages.search_title")}
            onSearch={(value) => {
              setQuery(value.trim());
              setPage(1);
            }}
            style={{ maxWidth: 320, marginBottom: 16 }}
          />
          <Table<Row>
            rowKey="id"
            loading={loading}
            dataSource={rows}
            onRow={(row) => ({ onClick: () => void select(row), style: { cursor: "pointer" }, "data-testid": `selection-row-${row.id}` }) as HTMLAttributes<HTMLElement>}
            columns={[
              { title: t("pages.id"), dataIndex: "id", width: 60 },
              {
                title: t(mode === "provider" ? "pages.provider" : "pages.school"),
                dataIndex: "title",
                // a link, so that the keyboard reaches it too; the row's own click is not repeated
                render: (_, row) => (
                  <Button
                    type="link"
                    style={{ padding: 0, height: "auto", whiteSpace: "normal", textAlign: "start" }}
                    onClick={(event) => {
                      event.stopPropagation();
                      void select(row);
                    }}
                    data-testid={`select-name-${mode}-${row.id}`}
                  >
                    {row.title}
                  </Button>
                ),
              },
              {
                title: t("pages.end_time"),
                // on a phone the tag goes under the date rather than pushing the Manage button out of view
                render: (_, row) => <TermEnd day={row.end_time ?? row.endtime} />,
              },
              {
                title: t("pages.action"),
                width: 120,
                render: (_, row) => (
                  <Button
                    type="primary"
                    size="small"
                    onClick={(event) => {
                      event.stopPropagation();
                      void select(row);
                    }}
                    data-testid={`select-${mode}-${row.id}`}
                  >
                    {t("pages.manage")}
                  </Button>
                ),
              },
            ]}
            pagination={{
              current: page,
              pageSize: limit,
              total,
              pageSizeOptions: PAGE_SIZES,
              showSizeChanger: true,
              showQuickJumper: true,
              showTotal: (n) => t("pages.total", { total: n }),
              onChange: (p, size) => {
                setPage(size !== limit ? 1 : p);
                setLimit(size);
              },
            }}
          />
        </Card>
      </Layout.Content>
      <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </Layout>
  );
}
