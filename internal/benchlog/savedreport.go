package benchlog

// IsSavedReport reports whether blocks of the format come from a report
// file a tool saves (JSON, or guidellm's YAML) rather than prints: such a
// file may hold megabytes of per-request arrays.
func (f Format) IsSavedReport() bool {
	switch f {
	case FormatVLLMJSON, FormatTRTLLMJSON, FormatSGLangJSONL, FormatTRTLLMBenchJS,
		FormatVLLMThroughputJSON, FormatVLLMLatencyJSON, FormatLlamaBenchJSON,
		FormatGuideLLMJSON, FormatGuideLLMYAML, FormatLLMPerfJSON, FormatEvalScopeJSON:
		return true
	}
	return false
}
