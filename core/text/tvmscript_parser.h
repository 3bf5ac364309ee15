// The recursive-descent base of the TVMScript reader (internal to core/text).
//
// ScriptParser owns the token list of one text and the cursor over it, and
// gives the grammar halves (the module frame and Relax in
// tvmscript_module.cpp / tvmscript_relax*.cpp, TIR in tvmscript_tir*.cpp) the
// same helpers: peek/take/expect, located errors (DiagnosticError with
// file:line:col, rule "parse"), a nesting bound and the spelling record.
// Errors stop the load at the first problem: TVMScript's Python layout makes
// resynchronising after a bad statement unreliable, and one clear message
// beats a cascade.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/diagnostic.h"
#include "core/text/tvmscript.h"
#include "core/text/tvmscript_lexer.h"

namespace passlab::tvmscript {

/// Deepest nesting of expressions, blocks and statements accepted (as the Relay parser).
inline constexpr int kMaxScriptNesting = 512;

/// Token cursor, diagnostics and shared state of one TVMScript load.
class ScriptParser {
 public:
  /// Tokenizes `text` (throws a located DiagnosticError on a lexical error).
  ScriptParser(std::string text, std::string fileName);
  virtual ~ScriptParser() = default;

  // ---- Tokens ------------------------------------------------------------
  /// The token `k` ahead of the cursor (End past the end).
  const PyToken& peek(size_t k = 0) const;
  /// Consumes and returns the next token (never moves past End).
  const PyToken& take();
  /// The last token taken (the first token when none was).
  const PyToken& last() const { return tokens_[pos_ > 0 ? pos_ - 1 : 0]; }
  bool check(PyTok kind, size_t k = 0) const { return peek(k).kind == kind; }
  bool checkName(std::string_view word, size_t k = 0) const { return peek(k).is(word); }
  /// Consumes the next token when it is of `kind`.
  bool accept(PyTok kind);
  /// Consumes the next token when it is the name `word`.
  bool acceptName(std::string_view word);
  /// Consumes a token of `kind` or fails with "expected WHAT, got ...".
  const PyToken& expect(PyTok kind, std::string_view what);
  /// Consumes the name `word` or fails likewise.
  const PyToken& expectName(std::string_view word, std::string_view what);
  /// Consumes a Name token (any) or fails.
  const PyToken& expectAnyName(std::string_view what);
  /// Consumes the end of a statement (Newline, or ';' then Newline).
  void expectEndOfStatement();
  /// Consumes `:` Newline Indent: the start of an indented block.
  void expectBlockStart(std::string_view what);
  /// The cursor position (for backtracking over a lookahead).
  size_t position() const { return pos_; }
  /// Moves the cursor back to a position returned by position().
  void rewind(size_t position) { pos_ = position; }

  // ---- Literal values -------------------------------------------------------
  /// The value of an Int token (`1_000`, `0x1f`, `0o17`, `0b101`); fails
  /// located when it does not fit in int64.
  int64_t intValue(const PyToken& t) const;
  /// The value of a Float token (Python's: too large is inf).
  static double floatValue(const PyToken& t);

  // ---- Dotted names --------------------------------------------------------
  /// True when the tokens at the cursor spell `a.b.c` for `dotted` ("R.nn.conv2d").
  bool checkDotted(std::string_view dotted) const;
  /// Reads `name(.name)*` at the cursor into "a.b.c" (fails when no name is there).
  std::string takeDotted(std::string_view what);

  // ---- Diagnostics ---------------------------------------------------------
  /// A span covering token `t`.
  Span spanOf(const PyToken& t) const;
  /// A span from `first` to `lastTok`.
  Span spanOf(const PyToken& first, const PyToken& lastTok) const;
  /// Throws a located error at `t`.
  [[noreturn]] void fail(const PyToken& t, std::string message) const;
  /// Throws a located error at `span`.
  [[noreturn]] void failAt(const Span& span, std::string message) const;
  /// Fails with "expected WHAT, got <the next token>".
  [[noreturn]] void failExpected(std::string_view what) const;
  /// "'x'", "end of line", "string \"a\"": a token named for a message.
  static std::string describe(const PyToken& t);
  /// Records a note for the user (returned by the load).
  void note(const Span& span, std::string message, std::string rule = "tvmscript");
  const std::vector<Diagnostic>& notes() const { return notes_; }

  /// Bounds recursion: construct one per nesting level of any grammar rule.
  struct Depth {
    ScriptParser& parser;
    explicit Depth(ScriptParser& p);
    ~Depth() { --parser.depth_; }
    Depth(const Depth&) = delete;
    Depth& operator=(const Depth&) = delete;
  };

  // ---- Spelling ------------------------------------------------------------
  /// Records that `at` is spelled the way `spelling` prints (`R.Any`, `T.sblock`,
  /// `out_ty=`, `tirx`). The first one decides; a mix adds one note.
  void noteSpelling(TvmScriptSpelling spelling, const PyToken& at);
  /// The spelling seen (Release when nothing version-specific appeared).
  TvmScriptSpelling spelling() const { return spelling_; }
  bool spellingSeen() const { return spellingSeen_; }

  // ---- Module aliases --------------------------------------------------------
  /// The names the text imports the script modules under (`I`, `R`, `T` by default).
  std::string irAlias = "I", relaxAlias = "R", tirAlias = "T";

  /// The source (diagnostic spans point into it).
  const std::shared_ptr<const SourceFile>& file() const { return file_; }
  /// The comments of the text, in order.
  const std::vector<PyComment>& comments() const { return comments_; }

 private:
  std::shared_ptr<const SourceFile> file_;
  std::vector<PyToken> tokens_;
  std::vector<PyComment> comments_;
  size_t pos_ = 0;
  int depth_ = 0;
  std::vector<Diagnostic> notes_;
  TvmScriptSpelling spelling_ = TvmScriptSpelling::Release;
  bool spellingSeen_ = false;
  bool mixNoted_ = false;
};

}  // namespace passlab::tvmscript
