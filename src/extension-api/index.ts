/**
 * The public extension API: the one import path an extension needs (see docs/extending.md).
 * Everything it exports is typed and documented; everything else in src/ is private to the
 * service and may change in any release. Versioned by EXTENSION_API_VERSION.
 */
export { EXTENSION_API_VERSION } from './version.js';
export type { CaseIntakeOptions, ExtensionDeclaration, ExtensionModule } from './extensions.js';
export { CASE_EVENT_TYPES, CaseEventListener } from './case-events.js';
export type { CaseEvent, CaseEventCase, CaseEventHandler, CaseEventType } from './case-events.js';
export { CaseIntake, CaseSource, RequiresSourceCredential, SourceCredentialProof, type CaseSourceDefinition, type SourceCredentialRequest, type IntakeWorkflow, type JsonText, type SourceCaseReceipt, type SourceCaseRequest } from './case-sources.js';
export { SenderScheme, type SenderSchemeDefinition, type SenderSchemeOption, type SenderSchemeOptions, type SettingProblem, type SignatureVerifier, type SignedRequest } from './sender-schemes.js';
export { StepType } from './step-types.js';
export type { GuardedHttp, GuardedHttpRequest, GuardedHttpResponse, JsonSchema, ResolvedSecrets, StepArgumentsCheck, StepCase, StepContext, StepLog, StepOutcome, StepTypeDefinition } from './step-types.js';
