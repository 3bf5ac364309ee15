// Forwarding header: the matcher moved to core/analysis/node_match.h and its
// summaries and aligned printing to core/trace/change_summary.h. Kept while
// files on other branches (gui/) still include this path.
#pragma once

#include "core/analysis/node_match.h"
#include "core/trace/change_summary.h"
