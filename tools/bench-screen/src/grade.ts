/** The two grades a simulated screening decision takes. */
export type FeedbackGradeLike = 'relevant' | 'non-relevant'
