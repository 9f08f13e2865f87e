package study

// YAMLSuffix names a result saved as YAML (an llm-d Benchmark Report, a
// guidellm benchmarks.yaml) instead of a console log.
const YAMLSuffix = ".yaml"

// isResultSuffix says whether a file of a run folder (or of its history)
// with this extension holds a result: a console log, or a result the
// benchmark saved as JSON or YAML.
func isResultSuffix(suffix string) bool {
	return suffix == LogSuffix || suffix == JSONSuffix || suffix == YAMLSuffix
}
