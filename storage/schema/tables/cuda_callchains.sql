-- Call stacks of CUDA API calls (CUPTI_ACTIVITY_KIND_RUNTIME.callchainId), one row per frame,
-- stackDepth 0 the innermost. prof writes Python stacks (--python-backtrace=cuda): symbol is the
-- function's qualified name, module the source file, originalIP the line number, unresolved 0.
CREATE TABLE CUDA_CALLCHAINS (
    id                          INTEGER NOT NULL,
    symbol                      INTEGER NOT NULL,
    module                      INTEGER NOT NULL,
    unresolved                  INTEGER,
    originalIP                  INTEGER,
    stackDepth                  INTEGER NOT NULL,

    PRIMARY KEY (id, stackDepth)
);
