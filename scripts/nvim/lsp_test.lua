-- Driven by scripts/test-neovim.sh: attaches `promptc lsp` to a copy of the reference project in headless Neovim
-- (0.7 or later, through the built-in LSP client) and checks, as a user would see them: a diagnostic with its
-- suggestion for a constant misspelt in an unsaved buffer, withdrawn when the typo is undone; go to definition of
-- a constant; the inlay hints, code lens and semantic tokens that show the cache; a rename applied to every file.
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

-- 3. What the editor shows of the cache, as the client receives it: inlay hints in promptc.toml after an entry of
-- runbook.order and where the task's stable prefix ends, a code lens on the task, and the semantic tokens of a
-- template action inside a TOML string, decoded with the legend the server announced.
local client = vim.lsp.get_client_by_id(id)
vim.cmd("edit " .. root .. "/promptc.toml")
local mbuf = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(mbuf, id)
local lines = vim.api.nvim_buf_get_lines(mbuf, 0, -1, false)
local function request(b, method, p)
  local r = vim.lsp.buf_request_sync(b, method, p, 20000)
  local got = r and r[id]
  if not got or got.err or got.result == nil then
    fail(method .. ": " .. vim.inspect(r))
  end
  return got.result
end
local function label(h)
  if type(h.label) == "string" then
    return h.label
  end
  local s = ""
  for _, part in ipairs(h.label) do
    s = s .. part.value
  end
  return s
end
local hints = request(mbuf, "textDocument/inlayHint", {
  textDocument = { uri = vim.uri_from_bufnr(mbuf) },
  range = { start = { line = 0, character = 0 }, ["end"] = { line = #lines, character = 0 } },
})
local function hint(text)
  for _, h in ipairs(hints) do
    if label(h):find(text, 1, true) then
      return h
    end
  end
  fail("no inlay hint " .. text .. " among " .. vim.inspect(vim.tbl_map(label, hints)))
end
local h = hint("global, 507 B, 107 tokens")
local before = lines[h.position.line + 1]:sub(1, h.position.character)
if not before:find('"header"$') then
  fail(("the hint of \"header\" stands after %q, want right after the entry"):format(before))
end
h = hint('"issue" prefix ends: 12079 B, 2847 tokens')
local after = lines[h.position.line + 1]:sub(h.position.character + 1)
if not after:find('^%s*"identity"') then
  fail(("the end of issue's prefix stands before %q, want before \"identity\""):format(after))
end
ok("inlay hints: a block's scope, bytes and tokens after its entry; the end of the stable prefix before the first session block")

local lenses = request(mbuf, "textDocument/codeLens", { textDocument = { uri = vim.uri_from_bufnr(mbuf) } })
local lens
for _, l in ipairs(lenses) do
  if l.command and l.command.title:find("prefix 2847 tokens", 1, true) then
    lens = l
  end
end
if not lens then
  fail("no code lens with the prefix of issue: " .. vim.inspect(lenses))
end
if not lines[lens.range.start.line + 1]:find("issue", 1, true) then
  fail(("the lens stands on %q, want the line of the task issue"):format(lines[lens.range.start.line + 1]))
end
ok("code lens on the task: " .. lens.command.title)

local legend = client.server_capabilities.semanticTokensProvider.legend
local data = request(buf, "textDocument/semanticTokens/full", { textDocument = { uri = vim.uri_from_bufnr(buf) } }).data
local blines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local seen, line, col = {}, 0, 0
for i = 1, #data, 5 do
  if data[i] > 0 then
    col = 0
  end
  line, col = line + data[i], col + data[i + 1]
  local text = blines[line + 1]:sub(col + 1, col + data[i + 2])
  local mods = {}
  for bit, m in ipairs(legend.tokenModifiers) do
    if math.floor(data[i + 4] / 2 ^ (bit - 1)) % 2 == 1 then
      table.insert(mods, m)
    end
  end
  table.insert(seen, text .. "=" .. legend.tokenTypes[data[i + 3] + 1] .. (#mods > 0 and "+" .. table.concat(mods, "+") or ""))
end
local want = '{{=operator const=function "command_boundary"=string+readonly }}=operator'
if not table.concat(seen, " "):find(want, 1, true) then
  fail("the semantic tokens do not colour {{const \"command_boundary\"}}: " .. table.concat(seen, " "))
end
ok("semantic tokens colour a template action inside a TOML string: " .. want)
vim.cmd("buffer " .. buf)

-- 4. Rename the constant: the definition and every user, in TOML bodies and in the Markdown template.
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
