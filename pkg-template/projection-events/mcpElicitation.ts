// The vocabulary of MCP elicitation snapshots: a server's form request for structured user input
// inside a thread, the user's response, and the issues found in either. Types only.

export type AgentUiMcpElicitationMode = "form";
export type AgentUiMcpElicitationAction = "accept" | "decline" | "cancel";

export type AgentUiMcpElicitationIssueCode =
  | "missing_request_id"
  | "missing_thread_scope"
  | "missing_server_name"
  | "missing_request_mode"
  | "missing_requested_schema"
  | "invalid_response_action"
  | "missing_accept_content";

/** One problem of an elicitation request or response, with the JSON path it concerns. */
export interface AgentUiMcpElicitationIssue {
  code: AgentUiMcpElicitationIssueCode;
  path: string;
  message: string;
}

/** The raw elicitation: the request id, the request's params and the response, as they arrived. */
export interface AgentUiMcpElicitationProjectionInput {
  requestId?: string | null;
  params?: unknown;
  response?: unknown;
}

/** What an elicitation request asks for: its server and scope, and the requested schema's fields. */
export interface AgentUiMcpElicitationRequestSnapshot {
  requestId: string;
  serverName?: string;
  threadId?: string;
  turnId?: string;
  mode: AgentUiMcpElicitationMode;
  messagePreview?: string;
  schemaPropertyNames: string[];
  requiredFields: string[];
  requestedSchemaKeys: string[];
  correlatedToTurn: boolean;
}

/** What the user answered: the action and the keys of its content and metadata. */
export interface AgentUiMcpElicitationResponseSnapshot {
  action: AgentUiMcpElicitationAction;
  accepted: boolean;
  contentKeys: string[];
  metaKeys: string[];
}

/** An elicitation's request, its response when there is one, and their validation issues. */
export interface AgentUiMcpElicitationSnapshot {
  request: AgentUiMcpElicitationRequestSnapshot;
  response?: AgentUiMcpElicitationResponseSnapshot;
  validationIssues: AgentUiMcpElicitationIssue[];
}
