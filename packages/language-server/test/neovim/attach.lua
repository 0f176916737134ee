-- Run by neovim.test.ts in `nvim --headless`: opens the mission file named by MISSION_FILE, attaches the language
-- server (MISSION_SERVER, started with node) as a user's config would, waits for its diagnostics, asks for a hover on
-- the line holding `require phase`, and writes what Neovim received to MISSION_RESULT as JSON, then quits.
local file = os.getenv("MISSION_FILE")
local server = os.getenv("MISSION_SERVER")
local result_file = os.getenv("MISSION_RESULT")
local result = { nvim = tostring(vim.version().major) .. "." .. tostring(vim.version().minor) }

local function finish()
  local out = io.open(result_file, "w")
  out:write(vim.fn.json_encode(result))
  out:close()
  vim.cmd("qall!")
end

-- Never hang the test: whatever has arrived after 20 s is written as it is.
vim.defer_fn(function()
  result.timed_out = true
  finish()
end, 20000)

vim.cmd("edit " .. vim.fn.fnameescape(file))
local buffer = vim.api.nvim_get_current_buf()

local function hover()
  local line = vim.fn.search("require phase", "n") - 1
  local column = vim.fn.getline(line + 1):find("%[") -- on the window's first bound
  local params = { textDocument = { uri = vim.uri_from_bufnr(buffer) }, position = { line = line, character = column } }
  vim.lsp.buf_request(buffer, "textDocument/hover", params, function(err, reply)
    result.hover_error = err and err.message or nil
    result.hover = reply and reply.contents and reply.contents.value or nil
    finish()
  end)
end

local config = {
  name = "temporal-language-server",
  cmd = { "node", server, "--stdio" },
  root_dir = vim.fn.fnamemodify(file, ":h"),
  init_options = { now = "2026-11-22T17:25:00Z", viewerTimeZone = "UTC" },
  handlers = {
    ["textDocument/publishDiagnostics"] = function(err, params, ctx, config)
      vim.lsp.diagnostic.on_publish_diagnostics(err, params, ctx, config)
      if result.diagnostics ~= nil then return end
      -- What Neovim itself now holds for the buffer, as its user sees it in :lua vim.diagnostic.get().
      result.diagnostics = {}
      for _, d in ipairs(vim.diagnostic.get(buffer)) do
        table.insert(result.diagnostics, { code = d.code, lnum = d.lnum, col = d.col, severity = d.severity, message = d.message })
      end
      hover()
    end,
  },
}

-- vim.lsp.start (Neovim 0.8+) starts or reuses a client and attaches the buffer; Debian 12's Neovim 0.7 has only
-- the two calls it is made of.
if vim.lsp.start then
  result.attached_with = "vim.lsp.start"
  vim.lsp.start(config)
else
  result.attached_with = "vim.lsp.start_client"
  vim.lsp.buf_attach_client(buffer, vim.lsp.start_client(config))
end
