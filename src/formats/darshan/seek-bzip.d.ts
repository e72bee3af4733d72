declare module 'seek-bzip';
