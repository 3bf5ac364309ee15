// The recursive-descent parser behind parser.h (internal to core/text).
//
// Error handling: every problem is recorded as a located Diagnostic. Syntax
// errors throw ParseAbort, which a block catches per statement (it rescans to
// the next ';' or '}') and the module loop catches per top-level item (it skips
// to the next `def`/`primfn`/`#[`), so independent errors in one file are all
// reported. Semantic errors (undefined variable, unknown op, bad attribute)
// are recorded without throwing and make the enclosing expression "poisoned":
// parse functions return a null Expr, and a binding whose value is null is
// remembered as poisoned so later uses do not report the same problem again.
// Recursion is bounded by kMaxNestingDepth, so no input can exhaust the stack.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/ir/diagnostic.h"
#include "core/ir/module.h"
#include "core/ir/tir.h"
#include "core/text/lexer.h"
#include "core/text/metadata.h"

namespace passlab::text {

/// Deepest nesting of expressions, types, blocks and statements the parser accepts.
inline constexpr int kMaxNestingDepth = 512;
/// After this many errors the parser stops (binary garbage would produce one per byte).
inline constexpr size_t kMaxErrors = 20;

/// Thrown after a syntax error has been recorded; caught by statement and item recovery.
struct ParseAbort {};
/// Thrown when kMaxErrors is reached; caught at the top.
struct TooManyErrors {};

class Parser {
 public:
  Parser(std::string text, std::string fileName);

  /// Parses a module; throws DiagnosticError with every error found. Text
  /// without any `def` that holds an expression (TVM's `print(expr)`) becomes a
  /// module whose @main takes the free variables as parameters. Warnings and
  /// notes for the user (placeholders made, expression wrapped) go to `notes`.
  IRModule parseModule(std::vector<Diagnostic>* notes = nullptr);
  /// Parses a standalone expression (a block body up to the end of input).
  Expr parseStandaloneExpr();

 private:
  // ---- Tokens ----------------------------------------------------------
  const Token& peek(size_t k = 0);
  /// The next token without turning a lexer error into a ParseAbort.
  const Token& rawPeek();
  void fillLookahead(size_t k);
  Token take();
  bool check(Tok kind) { return peek().kind == kind; }
  bool checkWord(std::string_view word) { return peek().is(word); }
  bool accept(Tok kind);
  bool acceptWord(std::string_view word);
  Token expect(Tok kind, std::string_view what);
  Token expectWord(std::string_view word, std::string_view what);

  // ---- Diagnostics -----------------------------------------------------
  Span spanOf(const Token& first, const Token& last) const;
  Span spanFrom(const Token& first) const { return spanOf(first, lastTaken_); }
  Span spanAt(const Token& t) const { return spanOf(t, t); }
  void report(const Span& where, std::string message, std::string rule = "parse");
  [[noreturn]] void fail(const Token& at, std::string message);
  /// Reports a missing token just after the last one taken (where clang puts the caret).
  void reportMissing(std::string message);
  [[noreturn]] void failExpected(std::string_view what);
  /// "'%x'", "'nn.relu'", "end of input": how to name a token in a message.
  static std::string describe(const Token& t);

  /// Bounds recursion: one guard per nesting level.
  struct Depth {
    Parser& parser;
    Depth(Parser& p);
    ~Depth() { --parser.depth_; }
    Depth(const Depth&) = delete;
    Depth& operator=(const Depth&) = delete;
  };

  // ---- Recovery --------------------------------------------------------
  enum class Stop : uint8_t { Semi, RBrace, TopLevel, End };
  /// Rescans from `start` to the end of the statement it begins: past the next ';'
  /// outside braces, or up to (not past) an unmatched '}' or a top-level keyword.
  Stop skipStatement(const Token& start);
  /// Skips to the next top-level item; always consumes at least one token.
  void skipToTopLevel(const Token& itemStart);
  static bool isTopLevelKeyword(const Token& t) { return t.is("def") || t.is("primfn"); }

  // ---- Scopes ----------------------------------------------------------
  struct Symbol {
    std::string_view name;
    /// Graph-level value (a Var or any bound expression); null when poisoned.
    Expr value;
    /// TIR meaning: a scalar variable and/or a buffer (a buffer parameter has both).
    tir::Var tirVar;
    tir::Buffer buffer;
    bool poisoned = false;
    /// Declared by `free_var` (or `%x: T` in an expression); `used` once referenced.
    bool freeVar = false;
    bool used = false;
    uint32_t line = 0;
    int shadowed = -1;
    uint32_t scope = 0;
  };
  void pushScope();
  void popScope();
  /// Pops every scope opened after its construction, also when an error unwinds.
  struct ScopeGuard {
    Parser& parser;
    size_t level;
    explicit ScopeGuard(Parser& p) : parser(p), level(p.scopeStarts_.size()) {}
    ~ScopeGuard() {
      while (parser.scopeStarts_.size() > level) parser.popScope();
    }
    ScopeGuard(const ScopeGuard&) = delete;
    ScopeGuard& operator=(const ScopeGuard&) = delete;
  };
  /// Defines `name` in the innermost scope; reports (and returns null) on a duplicate.
  Symbol* define(const Token& nameToken, std::string_view name);
  const Symbol* lookup(std::string_view name);
  void poison(const Token& nameToken, std::string_view name);

  // ---- Module ----------------------------------------------------------
  void parseTopLevelItem();
  void parseHeaderAttribute();
  void parseDef();
  void parsePrimFunc();
  void addFunction(const Token& nameToken, Expr fn);

  // ---- Relay -----------------------------------------------------------
  /// Parses statements and the result expression up to `closing` (RBrace or End)
  /// and consumes the closing brace. Returns null when something inside failed.
  Expr parseBlockBody(Tok closing, const Token& open);
  struct BlockHeader;
  void parseLetHeader(std::vector<BlockHeader>& headers);
  void parseGraphBinding();
  void parseFreeVar();
  void parseDataflowBlock(std::vector<BlockHeader>& headers);
  Expr parseExpr();
  Expr parsePrimary();
  Expr parseLocalRef();
  Expr parseFunctionLiteral();
  Expr parseIf();
  Expr parseParenthesized();
  Expr parseOpReference();
  Expr parseScalarLiteral();
  Expr parseConstLiteral();
  Expr parseMetaReference();
  Expr parseCallArgs(Expr callee, const OpDef* op, const Token& start, bool calleeFailed);
  /// Parses `(%p: T, ..., Key=Value)` after the '('; defines the params in the current scope.
  bool parseParamList(std::vector<Var>& params, AttrDict& attrs);
  /// A const data list `[v, ...]` for an array of `dtype` and `shape`.
  NDArray parseConstData(DataType dtype, const std::vector<int64_t>& shape, const Token& typeToken);
  uint64_t parseConstElement(DataType dtype);
  Var makeVarAt(const Token& nameToken, Type annotation, bool isDataflow);

  // ---- TVM metadata and placeholders (parser_meta.cpp) -------------------
  /// Finds and decodes a `#[metadata]` section; the lexer then stops before it.
  void loadMetadataSection();
  /// Reads the type of a `/* ty=T ... */` comment right after the last token
  /// taken (TVM's annotation of a meta reference); null when there is none.
  Type readTypeComment();
  /// The span of one character at a byte offset of the text.
  Span spanAtOffset(size_t offset) const;
  /// Replaces the meta references whose type was left open by placeholders of
  /// the type their use determines; reports the ones no use determines.
  void resolveDeferredPlaceholders();
  /// Adds the load notes about placeholders to `notes`.
  void notePlaceholders(std::vector<Diagnostic>& notes) const;
  /// Parses the text after the headers as one expression and wraps it as @main.
  void parseExpressionModule(std::vector<Diagnostic>* notes);

  // ---- Types and attributes ---------------------------------------------
  Type parseType();
  std::vector<int64_t> parseShape();
  DataType parseDType();
  AttrValue parseAttrValue();
  /// `meta[VirtualDevice][N]` in attribute position.
  AttrValue parseMetaAttrValue();
  /// `meta[Kind][N]`: the tokens every metadata reference starts with.
  struct MetaHead {
    Token meta;
    Token kind;
    int64_t index = 0;
  };
  MetaHead parseMetaHead();
  AttrValue parseAttrNumber(bool negative, const Token& signToken);
  /// An attribute key: identifier or string.
  std::string parseAttrKey();
  /// nanf/inff16/... as a float of the dtype its suffix names; false if `word` is not one.
  static bool specialFloat(std::string_view word, DataType* dtype, bool* isNaN);
  const OpDef* findOpCached(std::string_view name);

  // ---- TIR (parser_tir.cpp) ---------------------------------------------
  /// Parses TIR statements up to and including the closing '}'.
  tir::Stmt parseTirBlock(const Token& open);
  /// `block "name"(%v = spatial(min, extent, binding), ...) where(...) reads(...) writes(...) alloc(...) attrs(...) { init { } ... }`
  tir::Stmt parseTirBlockStmt();
  /// `%A[min, min:end, ...], ...` inside reads(...) / writes(...).
  std::vector<tir::BufferRegion> parseTirRegions(const char* clause);
  void parseTirParam(std::vector<tir::Param>& params);
  tir::PrimExpr parseTirExpr(int minPrecedence = 0);
  tir::PrimExpr parseTirUnary();
  tir::PrimExpr parseTirPrimary();
  tir::PrimExpr parseTirLiteral(bool negative, const Token& signToken);
  std::vector<tir::PrimExpr> parseTirArgs();
  std::vector<tir::PrimExpr> parseTirIndices(const tir::Buffer& buffer, const Token& at);
  tir::Buffer parseBufferType(std::string name);
  DataType parseOptionalCallType(DataType fallback);

  // ---- State -----------------------------------------------------------
  std::shared_ptr<const SourceFile> file_;
  Lexer lexer_;
  std::array<Token, 3> lookahead_{};
  std::array<std::string, 3> lookaheadError_{};
  size_t lookaheadCount_ = 0;
  Token lastTaken_;
  int depth_ = 0;
  bool exprMode_ = false;

  std::vector<Diagnostic> diagnostics_;

  std::vector<Symbol> symbols_;
  std::unordered_map<std::string_view, int> symbolIndex_;
  /// Graph bindings are mostly %0, %1, ...: those names index this vector
  /// (innermost symbol or -1) instead of the hash map, which keeps parsing a
  /// 100k-op model cheap.
  std::vector<int> numericIndex_;
  /// The slot of a numeric name in numericIndex_, or null for other names.
  int* numericSlot(std::string_view name, bool grow);
  int* indexSlot(std::string_view name, bool create);
  std::vector<size_t> scopeStarts_;

  std::map<std::string, Expr> functions_;
  std::unordered_map<std::string, uint32_t> functionLines_;
  AttrDict moduleAttrs_;
  struct GlobalRef {
    std::string name;
    Span span;
  };
  std::vector<GlobalRef> globalRefs_;
  std::unordered_map<std::string_view, const OpDef*> opCache_;

  /// The decoded `#[metadata]` section, if the text has one that decodes.
  std::optional<TvmMetadata> metadata_;
  size_t metadataOffset_ = std::string::npos;
  /// One entry per `meta[relay.Constant][N]` index met.
  struct MetaRef {
    Expr value;  ///< the constant, or the stand-in variable while the type is open
    Span span;   ///< the first reference
    bool deferred = false;
  };
  std::map<int64_t, MetaRef> metaRefs_;
  /// One more than the largest `meta[VirtualDevice][N]` index met (0: none).
  int64_t metaVirtualDevices_ = 0;
  /// Gives the module a `virtual_devices` table covering every reference:
  /// from the text's table, else the #[metadata] section, else placeholders (noted).
  void completeVirtualDeviceTable(std::vector<Diagnostic>* notes);
  /// Free variables in order of first use (expression text).
  std::vector<Var> freeVarsInOrder_;
};

}  // namespace passlab::text
