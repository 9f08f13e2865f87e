package study

import "testing"

// TestAccuracyStdErr: each score keeps the standard error lm-eval writes
// beside it, none when it writes "N/A"; the errors are not scores.
func TestAccuracyStdErr(t *testing.T) {
	raw := []byte(`{"results": {
  "gsm8k": {"alias": "gsm8k", "exact_match,strict-match": 0.8802, "exact_match_stderr,strict-match": 0.0088},
  "mmlu": {"acc,none": 0.7441, "acc_stderr,none": "N/A"},
  "plain": {"acc": 0.5, "acc_stderr": 0.01}
}}`)
	scores, err := parseAccuracy("runs/a/accuracy.json", raw)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Score{}
	for _, sc := range scores {
		got[sc.Task+" "+sc.Metric] = sc
	}
	if len(got) != 3 {
		t.Fatalf("scores %v, want three, no standard error among them", scores)
	}
	if sc := got["gsm8k exact_match,strict-match"]; sc.StdErr != 0.0088 || sc.StdErrRaw != "0.0088" || sc.Line != 2 {
		t.Errorf("gsm8k: %+v, want standard error 0.0088, line 2", sc)
	}
	if sc := got["mmlu acc,none"]; sc.StdErr != 0 || sc.StdErrRaw != "" {
		t.Errorf("mmlu: %+v, want no standard error (N/A)", sc)
	}
	if sc := got["plain acc"]; sc.StdErr != 0.01 {
		t.Errorf("a metric without a filter: %+v, want 0.01", sc)
	}
}
