-- Driven by scripts/test-neovim.sh: attaches `promptc lsp` to a copy of the reference project in headless Neovim
-- (0.7 or later, through the built-in LSP client) and checks, as a user would see them: a diagnostic with its
-- suggestion for a constant misspelt in an unsaved buffer, withdrawn when the typo is undone; go to definition of
-- a constant; a rename applied to every file.
local root = assert(os.getenv("PROJECT"), "PROJECT unset")
local bin = assert(os.getenv("PROMPTC"), "PROMPTC unset")

local function fail(msg)
  io.stderr:write("FAIL: " .. msg .. "\n")
  vim.cmd("cquit 1")
end

local function ok(msg)
  io.stdout:write("ok   neovim: " .. msg .. "\n")
end

-- find returns the 0-based line and byte column of the first occurrence of text in buffer buf.
local function find(buf, text)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local s = l:find(text, 1, true)
    if s then
      return i - 1, s - 1
    end
  end
  fail("no " .. text .. " in " .. vim.api.nvim_buf_get_name(buf))
end

vim.cmd("edit " .. root .. "/blocks/00-core.toml")
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({ name = "promptc", cmd = { bin, "lsp" }, root_dir = root })
if not id then
  fail("promptc lsp did not start")
end
vim.lsp.buf_attach_client(buf, id)
if not vim.wait(20000, function()
  local c = vim.lsp.get_client_by_id(id)
  return c ~= nil and c.initialized
end, 50) then
  fail("the server did not initialize")
end

-- 1. An unsaved typo: the error appears at its line with the suggestion, and goes when the typo is undone.
local row, col = find(buf, 'never_post_secrets"')
vim.api.nvim_buf_set_text(buf, row, col, row, col + #"never_post_secrets", { "never_post_secret" })
local function typo()
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.message:find('did you mean "never_post_secrets"', 1, true) then
      return d
    end
  end
end
if not vim.wait(10000, function() return typo() ~= nil end, 20) then
  fail("no diagnostic for the misspelt constant; got " .. vim.inspect(vim.diagnostic.get(buf)))
end
if typo().lnum ~= row then
  fail(("the diagnostic is on line %d, the typo on line %d"):format(typo().lnum, row))
end
ok("diagnostic for an unsaved typo at its line, with the suggestion")
vim.api.nvim_buf_set_text(buf, row, col, row, col + #"never_post_secret", { "never_post_secrets" })
if not vim.wait(10000, function() return typo() == nil end, 20) then
  fail("the diagnostic stayed after the typo was undone")
end
ok("the diagnostic is withdrawn when the typo is undone")

-- 2. Go to definition of a constant: its line in blocks/consts.toml.
row, col = find(buf, 'command_boundary"')
local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = row, character = col + 3 } }
local res = vim.lsp.buf_request_sync(buf, "textDocument/definition", params, 10000)
local loc = res and res[id] and res[id].result and res[id].result[1]
if not loc then
  fail("no definition: " .. vim.inspect(res))
end
local want = 0
for i, l in ipairs(vim.fn.readfile(root .. "/blocks/consts.toml")) do
  if l:find("^command_boundary =") then
    want = i - 1
  end
end
if not loc.uri:find("/blocks/consts.toml$") or loc.range.start.line ~= want then
  fail(("definition at %s:%d, want blocks/consts.toml:%d"):format(loc.uri, loc.range.start.line, want))
end
ok("go to definition of a constant")

-- 3. Rename the constant: the definition and every user, in TOML bodies and in the Markdown template.
params.newName = "act_only_through_cli"
res = vim.lsp.buf_request_sync(buf, "textDocument/rename", params, 10000)
local edit = res and res[id] and res[id].result
if not edit then
  fail("no rename edit: " .. vim.inspect(res))
end
vim.lsp.util.apply_workspace_edit(edit, "utf-16")
vim.cmd("silent wall")
ok("rename applied and saved")
vim.lsp.stop_client(id)
vim.wait(5000, function() return vim.lsp.get_client_by_id(id) == nil end, 50)
vim.cmd("qall!")
