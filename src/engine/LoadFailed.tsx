/**
 * What the generic pages show when their data could not be read. The weapi client has already said why in
 * a toast; the page itself stops loading and says what the user can do: try again after a network failure,
 * or go back to the list when the server refused (a record that does not exist or is out of reach).
 */
import { ReloadOutlined, RollbackOutlined } from "@ant-design/icons";
import { Button, Empty, Result, Space } from "antd";
import { useTranslation } from "@refinedev/core";
import { ApiFailError } from "../../providers/dataProvider";

/** The list's empty area after a failed read, with a retry. */
export function ListLoadFailed({ onRetry }: { onRetry: () => void }) {
  const { translate } = useTranslation();
  return (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={translate("crud.load_failed")} data-testid="list-load-failed">
      <Button icon={<ReloadOutlined />} onClick={onRetry} data-testid="list-retry">
        {translate("crud.retry")}
      </Button>
    </Empty>
  );
}

/** A record page (edit, detail) whose record could not be read: never an empty form to fill in. */
export function RecordUnavailable({ error, entityTitle, onRetry, onBack }: { error: unknown; entityTitle: string; onRetry: () => void; onBack: () => void }) {
  const { translate } = useTranslation();
  const refused = error instanceof ApiFailError;
  const back = (
    <Button key="back" icon={<RollbackOutlined />} onClick={onBack} data-testid="record-back">
      {translate("crud.back_to_list")}
    </Button>
  );
  return (
    // Result keeps unknown props off its element: the test id goes on a wrapper
    <div data-testid={refused ? "record-not-found" : "record-load-failed"}>
      <Result
        status={refused ? "404" : "warning"}
        title={translate(refused ? "crud.not_found_title" : "crud.load_failed_record")}
        subTitle={refused ? translate("crud.not_found", { entity: translate(entityTitle) }) : undefined}
        extra={
          <Space wrap style={{ justifyContent: "center" }}>
            {!refused && (
              <Button type="primary" icon={<ReloadOutlined />} onClick={onRetry} data-testid="record-retry">
                {translate("crud.retry")}
              </Button>
            )}
            {back}
          </Space>
        }
      />
    </div>
  );
}
