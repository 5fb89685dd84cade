// The promptc extension starts `promptc lsp` and hands it the project files: promptc.toml, the TOML files under
// blocks/ and fixtures/, and everything under templates/. The server does the rest (docs/editors.md).
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";

let client: LanguageClient | undefined;

// The files a promptc project is made of. Patterns rather than languages: VS Code knows no TOML language by itself,
// and templates may have any extension.
const selector = [
  { scheme: "file", pattern: "**/promptc.toml" },
  { scheme: "file", pattern: "**/blocks/**/*.toml" },
  { scheme: "file", pattern: "**/fixtures/*.toml" },
  { scheme: "file", pattern: "**/templates/**" },
];

function start(): Promise<void> {
  const command = vscode.workspace.getConfiguration("promptc").get<string>("path") || "promptc";
  const server: ServerOptions = { command, args: ["lsp"] };
  const options: LanguageClientOptions = {
    documentSelector: selector,
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher("**/{promptc.toml,blocks/**,fixtures/**,templates/**}"),
    },
  };
  client = new LanguageClient("promptc", "promptc", server, options);
  return client.start();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand("promptc.restart", async () => {
      if (client) {
        await client.stop();
      }
      await start();
    }),
  );
  await start();
}

export function deactivate(): Thenable<void> | undefined {
  return client?.stop();
}
