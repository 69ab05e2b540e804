-- CUDA graph creation, cloning and instantiation (instant events: start = end).
CREATE TABLE CUDA_GRAPH_EVENTS (
    start                       INTEGER   NOT NULL,
    end                         INTEGER   NOT NULL,
    eventClass                  INTEGER   NOT NULL,
    globalTid                   INTEGER,
    nameId                      INTEGER   NOT NULL,
    graphId                     INTEGER,
    originalGraphId             INTEGER,
    graphExecId                 INTEGER
);
