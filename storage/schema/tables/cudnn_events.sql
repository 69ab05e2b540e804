-- cuDNN API calls (--trace=cudnn), as ranges on the calling thread; eventClass refers to
-- ENUM_NSYS_EVENT_CLASS(id) (28 cuDNN), nameId to StringIds(id): the function's name.
CREATE TABLE CUDNN_EVENTS (
    start                       INTEGER NOT NULL,
    end                         INTEGER NOT NULL,
    eventClass                  INTEGER NOT NULL,
    globalTid                   INTEGER,
    nameId                      INTEGER NOT NULL
);
