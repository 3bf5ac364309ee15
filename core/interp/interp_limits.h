// The interpreters' resource settings (docs/limits.md): a memory budget for
// the tensors one evaluation allocates, and an interrupt flag that both
// interpreters poll, so a runaway evaluation stops with a located error
// instead of eating the machine's memory or ignoring Ctrl-C.
#pragma once

#include <cstdint>
#include <string>

namespace passlab::interp {

/// Bytes of tensors one evaluation may hold live at once (`set
/// interp-max-bytes`). Process-wide.
int64_t maxBytes();
/// Sets maxBytes; values below 1 MiB are raised to 1 MiB.
void setMaxBytes(int64_t bytes);
/// The default: a quarter of the machine's physical memory (4 GiB when it
/// cannot be determined).
int64_t defaultMaxBytes();
/// The words ending a budget error: how to raise the limit.
std::string maxBytesHint();

/// Asks every running evaluation to stop at its next poll (within
/// milliseconds). Async-signal-safe: the REPL's SIGINT handler calls it.
void requestInterrupt() noexcept;
/// Forgets an interrupt request (at the start of each command or move).
void clearInterrupt() noexcept;
/// True while an interrupt is pending.
bool interruptRequested() noexcept;

/// The message of an evaluation stopped by requestInterrupt (rule "interp.interrupted").
inline constexpr const char* kInterruptedMessage = "evaluation interrupted (Ctrl-C)";

}  // namespace passlab::interp
