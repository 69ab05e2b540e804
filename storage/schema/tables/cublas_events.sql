-- cuBLAS and cuBLASLt API calls (--trace=cublas), as ranges on the calling thread; eventClass refers
-- to ENUM_NSYS_EVENT_CLASS(id) (29 cuBLAS), nameId to StringIds(id): the function's name.
CREATE TABLE CUBLAS_EVENTS (
    start                       INTEGER NOT NULL,
    end                         INTEGER NOT NULL,
    eventClass                  INTEGER NOT NULL,
    globalTid                   INTEGER,
    nameId                      INTEGER NOT NULL
);
