package check

import (
	"fmt"

	"github.com/perflab/perflab/internal/study"
)

// RulePrice: results/prices.yaml prices other GPUs but not the study's,
// which then has no cost.
const RulePrice = "price-missing"

func priceRule(s *study.Study, add func(Diagnostic)) {
	at := s.Unpriced
	if at == nil {
		return
	}
	add(Diagnostic{Rule: RulePrice, Severity: Warning, File: at.File, Line: at.Line, Subject: s.Hardware.GPU,
		Message: fmt.Sprintf("%s prices no %q, the GPU of study %s (%s:%d), so its report shows no cost: add a price for it (gpu, gpu_hour, currency) beside the one on this line, or give the study a price: of its own",
			at.File, s.Hardware.GPU, s.ID, s.Hardware.Pos.File, s.Hardware.Pos.Line)})
}
