package stdexamples

// Quarantine names the examples whose wrong answer, hang or crash is known
// and reported (issue 24), with the reason; TestStdExamples logs them
// instead of failing, and fails when one no longer goes wrong (remove its
// entry then). Every entry is a bug to fix, not a verdict: each reason names
// the construct and a minimal program is in the report.
var Quarantine = map[string]string{}
