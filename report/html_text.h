// Escaping for the HTML report: everything the IR contains is untrusted text
// (a function name or a string attribute may hold markup or a script).
#pragma once

#include <string>
#include <string_view>

namespace passlab {

/// `text` with & < > " ' as character references: safe as element content and
/// inside a quoted attribute value.
std::string htmlEscape(std::string_view text);

/// `text` as a JSON string literal that is also safe inside a <script>
/// element: besides JSON's own escapes, '<', '>' and '&' become \u003c, \u003e
/// and \u0026 (so no "</script>" or "<!--" can appear), and U+2028/U+2029,
/// which end a line in older script engines, become escapes too.
std::string scriptJsonString(std::string_view text);

/// A value for an HTML id or anchor: letters, digits and '-' kept, every
/// other byte as "_XX" in hex, so two different names never share an id.
std::string htmlId(std::string_view text);

}  // namespace passlab
