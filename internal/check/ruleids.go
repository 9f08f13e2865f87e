package check

// Rules lists the id of every rule, in the order docs/checks.md lists
// them: the one list that the docs, the locales (a `rule.<id>` message in
// every language) and the tests are held to. A rule added without its id
// here fails TestRuleRegistry.
func Rules() []string {
	return []string{
		RuleSchema, RuleModel, RuleGPUFit, RuleClaim, RuleClaimUnproven, RuleUnchecked,
		RuleArithmetic, RuleLogParse, RulePercentiles,
		RuleRequests, RuleSameData, RuleCopy, RuleTradeOff, RulePlausibility,
		RuleNonFinite, RuleRegression, RuleRecorded, RuleOutputLength, RuleGuess, RulePrice, RuleReproduction,
		RuleDefinitions, RuleSweepPoint, RuleSweepMissing, RuleUnplaced,
		RuleEngineLabel, RuleEngineVersion, RuleWorkload, RuleContinuation,
		RuleRepeatCopy, RuleLogModel, RuleRunName,
		RuleAckUnused, RuleAckLanguage,
		RuleTranslation, RuleDrift, RuleProseFigure, RuleProseFact, RuleTypography, RuleLinkSpoof,
		RuleInvisible, RulePortableName,
	}
}
