#include "repl/session.h"

#include "repl/paste.h"

// Debian's libedit (BSD licence) provides a readline-compatible interface.
#include <editline/readline.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

namespace passlab {
namespace {

// The readline interface is C with global callbacks, and signal handlers can
// only reach globals: these hold the one session running in this process.
CommandInterpreter* gInterpreter = nullptr;
Workbench* gWorkbench = nullptr;
volatile sig_atomic_t gCommandRunning = 0;
volatile sig_atomic_t gInterruptsThisCommand = 0;
volatile sig_atomic_t gPromptInterrupted = 0;
std::vector<std::string> gMatches;
size_t gMatchIndex = 0;

void writeStderr(const char* text) {
  ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

extern "C" void onSigint(int) {
  if (!gCommandRunning) {
    gPromptInterrupted = 1;
    return;
  }
  // The first Ctrl-C asks the running move to stop at the next pass boundary,
  // keeping the trace; a second one is the way out of a pass that never ends.
  if (gInterruptsThisCommand != 0) {
    writeStderr("\npasslab: interrupted twice; exiting\n");
    ::_exit(130);
  }
  gInterruptsThisCommand = 1;
  if (gWorkbench) gWorkbench->requestCancel();
  writeStderr("\n(interrupt: stopping the evaluation, or after the current pass or candidate; Ctrl-C again exits)\n");
}

char* nextMatch(const char* /*text*/, int state) {
  if (state == 0) gMatchIndex = 0;
  if (gMatchIndex >= gMatches.size()) return nullptr;
  return ::strdup(gMatches[gMatchIndex++].c_str());
}

char** completeLine(const char* text, int /*start*/, int end) {
  rl_attempted_completion_over = 1;  // never fall back to readline's own file completion
  if (!gInterpreter) return nullptr;
  std::string line = rl_line_buffer ? rl_line_buffer : "";
  Completion completion = gInterpreter->complete(line, static_cast<size_t>(end));
  gMatches = std::move(completion.candidates);
  rl_completion_append_character = completion.appendSpace ? ' ' : '\0';
  if (gMatches.empty()) return nullptr;
  return rl_completion_matches(text, nextMatch);
}

void installSigint() {
  struct sigaction action {};
  action.sa_handler = onSigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocking read returns, so the prompt can be redrawn
  sigaction(SIGINT, &action, nullptr);
}

/// Shows which pass is running on a status line of the terminal, so a long
/// move is visibly alive; the line is erased before the command's output.
void showProgress(const PassProgress& p) {
  std::string line = "\r\x1b[K[" + std::to_string(p.index + 1) + "/" + std::to_string(p.total) + "] " +
                     (p.finished ? "done " : "running ") + p.pass;
  writeStderr(line.c_str());
}

/// Runs one line with Ctrl-C routed to the workbench.
CommandResult runGuarded(CommandInterpreter& interpreter, const std::string& line, bool statusLine) {
  gInterruptsThisCommand = 0;
  interpreter.workbench().clearCancel();  // an interrupt of the previous command must not stop this one
  gCommandRunning = 1;
  if (statusLine) {
    interpreter.workbench().setProgressListener(showProgress);
    interpreter.statusLine = [](const StatusUpdate& update) { writeStderr(("\r\x1b[K" + update.text).c_str()); };
  }
  CommandResult result = interpreter.runLine(line);
  if (statusLine) {
    interpreter.workbench().setProgressListener(nullptr);
    interpreter.statusLine = nullptr;
    writeStderr("\r\x1b[K");
  }
  gCommandRunning = 0;
  return result;
}

}  // namespace

std::string historyFilePath() {
  if (const char* path = std::getenv("PASSLAB_HISTORY"); path && *path) return path;
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.passlab_history";
  return "";
}

void printResult(const CommandResult& result, std::FILE* out, std::FILE* err) {
  for (const CommandResult::Chunk& chunk : result.chunks) {
    std::FILE* f = chunk.error ? err : out;
    std::fwrite(chunk.text.data(), 1, chunk.text.size(), f);
    std::fflush(f);
  }
}

int runSession(CommandInterpreter& interpreter, bool interactive, std::FILE* out, std::FILE* err) {
  gInterpreter = &interpreter;
  gWorkbench = &interpreter.workbench();
  installSigint();
  int status = 0;
  ModulePaste paste;
  auto isCommand = [&interpreter](std::string_view word) { return interpreter.find(word) != nullptr; };
  // Feeds a line to a paste in progress (or one this line starts); true when
  // the line was module text. A finished paste is loaded and reported.
  auto pasted = [&](const std::string& line) {
    if (!paste.active() && !ModulePaste::startsModuleText(line)) return false;
    ModulePaste::Feed feed = paste.feed(line, isCommand);
    if (feed == ModulePaste::Feed::Continue) return true;
    CommandResult result = interpreter.loadPasted(paste.take());
    printResult(result, out, err);
    if (result.status == CommandStatus::Error) status = 1;
    return feed == ModulePaste::Feed::Done;
  };
  if (!interactive) {
    // Piped input: echo each line like a script, keep going after errors.
    std::string line;
    while (std::getline(std::cin, line)) {
      if (pasted(line)) continue;
      if (line.find_first_not_of(" \t\r") == std::string::npos || line[line.find_first_not_of(" \t")] == '#') continue;
      std::string echo = std::string(CommandInterpreter::kPrompt) + line + "\n";
      std::fwrite(echo.data(), 1, echo.size(), out);
      std::fflush(out);
      CommandResult result = runGuarded(interpreter, line, false);
      printResult(result, out, err);
      if (result.status == CommandStatus::Error) status = 1;
      if (result.status == CommandStatus::Quit) break;
    }
    if (paste.active()) printResult(interpreter.loadPasted(paste.take()), out, err);
    return status;
  }

  rl_readline_name = "passlab";
  rl_attempted_completion_function = completeLine;
  // Only blanks separate words: '@main', 'relay.FuseOps.max_depth' and paths complete whole.
  static char wordBreaks[] = " \t\n";
  rl_completer_word_break_characters = wordBreaks;
  rl_basic_word_break_characters = wordBreaks;
  using_history();
  const std::string history = historyFilePath();
  if (!history.empty()) read_history(history.c_str());
  const bool statusLine = isatty(STDERR_FILENO);
  std::fputs("passlab: type `help` for commands, TAB completes, Ctrl-C stops a run, `quit` leaves.\n", out);
  std::fflush(out);
  std::string previous;
  for (;;) {
    gPromptInterrupted = 0;
    // A paste in progress continues under a "..." prompt, as Python's does.
    char* raw = readline(paste.active() ? "... " : CommandInterpreter::kPrompt);
    if (!raw) {
      if (gPromptInterrupted) {  // Ctrl-C at the prompt: a fresh line, not the end
        std::fputs("\n", out);
        continue;
      }
      std::fputs("\n", out);
      if (paste.active()) printResult(interpreter.loadPasted(paste.take()), out, err);
      break;
    }
    std::string line = raw;
    std::free(raw);
    if (pasted(line)) continue;
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    if (line != previous) {
      add_history(line.c_str());
      if (!history.empty()) write_history(history.c_str());
      previous = line;
    }
    CommandResult result = runGuarded(interpreter, line, statusLine);
    printResult(result, out, err);
    if (result.status == CommandStatus::Quit) break;
  }
  if (!history.empty()) history_truncate_file(history.c_str(), 1000);
  gInterpreter = nullptr;
  gWorkbench = nullptr;
  return status;
}

}  // namespace passlab
